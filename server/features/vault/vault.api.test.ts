import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, vaultKeys, vaultSecrets, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// The credential vault through the API (docs/decisions/025): values go in and never come out,
// names and kinds are listed, roles and workspaces decide who sees and changes what, and the
// plan decides how many secrets a workspace keeps.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Secret = { id: string; name: string; kind: string; placeholder: string; createdAt: string; updatedAt: string }
type Answer<T> = { status: number; data: T; message?: string; code?: string; issues?: { path: string; message: string }[]; raw: string }

const PASSWORD = 'planted-Pa55word-7f3a91'
/** Where the secrets of these tests may be typed (docs/decisions/039). */
const ORIGINS = ['https://shop.example.com']
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'

let t: TestApp
let owner: Account
let stranger: Account

async function call<T>(
  account: Account | string,
  path: string,
  init: { method?: string; body?: unknown; workspace?: string } = {},
): Promise<Answer<T>> {
  const response = await t.request(path, {
    method: init.method,
    body: init.body,
    token: typeof account === 'string' ? account : account.token,
    headers: init.workspace ? { 'x-workspace-id': init.workspace } : {},
  })
  const raw = await response.text()
  const body = (raw ? JSON.parse(raw) : {}) as Omit<Answer<T>, 'status' | 'raw'>
  return { ...body, status: response.status, raw }
}

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp()
  stranger = await t.signUp()
})
afterAll(async () => {
  await t.close()
})

describe('secrets in the vault', () => {
  let secret: Secret

  it('adds a secret and answers its name, kind and placeholder, never its value', async () => {
    const created = await call<Secret>(owner, '/api/vault', {
      body: { name: 'shop_password', kind: 'password', value: PASSWORD, origins: ORIGINS },
    })
    expect(created.status).toBe(201)
    secret = created.data
    expect(secret).toMatchObject({
      name: 'shop_password',
      kind: 'password',
      placeholder: '{{secrets.shop_password}}',
      origins: ORIGINS,
      useRole: 'member',
      originsSetFromSteps: false,
    })
    expect(created.raw).not.toContain(PASSWORD)
    const listed = await call<Secret[]>(owner, '/api/vault')
    expect(listed.status).toBe(200)
    expect(listed.data.map((each) => each.name)).toEqual(['shop_password'])
    expect(listed.raw).not.toContain(PASSWORD)
  })

  it('keeps the value sealed at rest, bound to its workspace, and out of the activity log', async () => {
    const [row] = await t.db.select().from(vaultSecrets).where(eq(vaultSecrets.id, secret.id))
    expect(row?.sealedValue).toMatch(/^v1\./)
    expect(row?.sealedValue).not.toContain(PASSWORD)
    expect(Buffer.from(row?.sealedValue.slice(3) ?? '', 'base64url').toString('latin1')).not.toContain(PASSWORD)
    const [key] = await t.db.select().from(vaultKeys).where(eq(vaultKeys.workspaceId, owner.id))
    expect(key?.wrappedKey).toMatch(/^v1\./)
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.workspaceId, owner.id))
    expect(entries.map((entry) => entry.summary)).toContain(
      'Added the secret shop_password to the vault, for https://shop.example.com (used by members, admins and the owner)',
    )
    expect(JSON.stringify(entries)).not.toContain(PASSWORD)
    // Only a run reads it back.
    expect((await t.services.vault.valuesFor(owner.id, ['shop_password'])).get('shop_password')).toEqual({
      kind: 'password',
      value: PASSWORD,
      origins: ORIGINS,
      useRole: 'member',
      originsFromStepsAt: null,
    })
  })

  it('refuses a second secret of the same name, a bad name and a TOTP secret that is not one', async () => {
    const twice = await call(owner, '/api/vault', { body: { name: 'shop_password', kind: 'password', value: 'other', origins: ORIGINS } })
    expect(twice.status).toBe(409)
    expect(twice.message).toContain('already holds a secret named shop_password')
    const badName = await call(owner, '/api/vault', { body: { name: 'shop password!', kind: 'password', value: 'x', origins: ORIGINS } })
    expect(badName.status).toBe(400)
    expect(badName.issues?.[0]?.path).toBe('name')
    const badTotp = await call(owner, '/api/vault', {
      body: { name: 'shop_totp', kind: 'totp', value: 'not base32 at all 1890', origins: ORIGINS },
    })
    expect(badTotp.status).toBe(400)
    expect(badTotp.message).toContain('TOTP secret')
    const empty = await call(owner, '/api/vault', { body: { name: 'empty', kind: 'value', value: '', origins: ORIGINS } })
    expect(empty.status).toBe(400)
  })

  it('takes a TOTP secret as an otpauth:// address or spaced lower case, and keeps the base32 key', async () => {
    const uri = `otpauth://totp/Shop:me?secret=${TOTP_SECRET}&issuer=Shop`
    const created = await call<Secret>(owner, '/api/vault', { body: { name: 'shop_totp', kind: 'totp', value: uri, origins: ORIGINS } })
    expect(created.status).toBe(201)
    expect(created.data.placeholder).toBe('{{totp.shop_totp}}')
    expect((await t.services.vault.valuesFor(owner.id, ['shop_totp'])).get('shop_totp')?.value).toBe(TOTP_SECRET)
    const spaced = TOTP_SECRET.toLowerCase().replace(/(.{4})/g, '$1 ')
    const other = await call<Secret>(owner, '/api/vault', { body: { name: 'other_totp', kind: 'totp', value: spaced, origins: ORIGINS } })
    expect(other.status).toBe(201)
    expect((await t.services.vault.valuesFor(owner.id, ['other_totp'])).get('other_totp')?.value).toBe(TOTP_SECRET)
  })

  it('replaces a value (never answering it) and deletes a secret', async () => {
    const replaced = await call<Secret>(owner, `/api/vault/${secret.id}`, { method: 'PUT', body: { value: `${PASSWORD}-2` } })
    expect(replaced.status).toBe(200)
    expect(replaced.raw).not.toContain(PASSWORD)
    expect((await t.services.vault.valuesFor(owner.id, ['shop_password'])).get('shop_password')?.value).toBe(`${PASSWORD}-2`)
    const victim = await call<Secret>(owner, '/api/vault', {
      body: { name: 'to_delete', kind: 'value', value: 'short-lived', origins: ORIGINS },
    })
    expect((await call(owner, `/api/vault/${victim.data.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await call(owner, `/api/vault/${victim.data.id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await call(owner, '/api/vault/not-a-uuid', { method: 'DELETE' })).status).toBe(404)
  })

  it("answers 404 for another workspace's secret, and lists only the caller's", async () => {
    expect((await call(stranger, `/api/vault/${secret.id}`, { method: 'PUT', body: { value: 'hijack' } })).status).toBe(404)
    expect((await call(stranger, `/api/vault/${secret.id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await call<Secret[]>(stranger, '/api/vault')).data).toEqual([])
    expect((await t.services.vault.valuesFor(owner.id, ['shop_password'])).get('shop_password')?.value).toBe(`${PASSWORD}-2`)
  })

  it('refuses API keys the changes, and lets them list names with the automations scope', async () => {
    const key = await call<{ key: string }>(owner, '/api/keys', { body: { name: 'vault key test' } })
    expect((await call<Secret[]>(key.data.key, '/api/vault')).status).toBe(200)
    const refused = await call(key.data.key, '/api/vault', { body: { name: 'from_key', kind: 'value', value: 'x', origins: ORIGINS } })
    expect(refused.status).toBe(403)
    expect((await call(key.data.key, `/api/vault/${secret.id}`, { method: 'DELETE' })).status).toBe(403)
  })
})

describe('roles in a team workspace', () => {
  let teamOwner: Account
  let viewer: Account
  let member: Account
  let team: string
  let secretId: string

  beforeAll(async () => {
    teamOwner = await t.signUp()
    viewer = await t.signUp()
    member = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, teamOwner.id))
    team = (await call<{ id: string }>(teamOwner, '/api/workspaces', { body: { name: 'Vault team' } })).data.id
    await t.db.insert(workspaceMembers).values([
      { workspaceId: team, userId: viewer.id, role: 'viewer' },
      { workspaceId: team, userId: member.id, role: 'member' },
    ])
    const created = await call<Secret>(teamOwner, '/api/vault', {
      body: { name: 'team_login', kind: 'username', value: 'team@example.com', origins: ORIGINS },
      workspace: team,
    })
    expect(created.status).toBe(201)
    secretId = created.data.id
  })

  it('lets a viewer list the names only, and refuses them every change (403) before the body is read', async () => {
    const listed = await call<Secret[]>(viewer, '/api/vault', { workspace: team })
    expect(listed.status).toBe(200)
    expect(listed.data.map((each) => each.name)).toEqual(['team_login'])
    expect(
      (await call(viewer, '/api/vault', { body: { name: 'x', kind: 'value', value: 'y', origins: ORIGINS }, workspace: team })).status,
    ).toBe(403)
    expect((await call(viewer, '/api/vault', { body: 'not json at all', workspace: team })).status).toBe(403)
    expect((await call(viewer, `/api/vault/${secretId}`, { method: 'PUT', body: { value: 'z' }, workspace: team })).status).toBe(403)
    expect((await call(viewer, `/api/vault/${secretId}`, { method: 'DELETE', workspace: team })).status).toBe(403)
  })

  it('lets a member add, replace and delete', async () => {
    const created = await call<Secret>(member, '/api/vault', {
      body: { name: 'member_value', kind: 'value', value: 'abc-123', origins: ORIGINS },
      workspace: team,
    })
    expect(created.status).toBe(201)
    expect(
      (await call(member, `/api/vault/${secretId}`, { method: 'PUT', body: { value: 'new@example.com' }, workspace: team })).status,
    ).toBe(200)
    expect((await call(member, `/api/vault/${created.data.id}`, { method: 'DELETE', workspace: team })).status).toBe(200)
  })

  it("keeps the team's secrets out of its people's personal workspaces", async () => {
    expect((await call<Secret[]>(member, '/api/vault')).data).toEqual([])
    expect((await call(member, `/api/vault/${secretId}`, { method: 'DELETE' })).status).toBe(404)
  })
})

describe('the plan decides the vault size', () => {
  it('refuses a secret past the plan’s size, naming the plan that holds more; deleting one makes room', async () => {
    const account = await t.signUp()
    const ids: string[] = []
    for (let i = 1; i <= 5; i++) {
      const created = await call<Secret>(account, '/api/vault', {
        body: { name: `secret_${i}`, kind: 'value', value: `value-${i}`, origins: ORIGINS },
      })
      expect(created.status).toBe(201)
      ids.push(created.data.id)
    }
    const refused = await call(account, '/api/vault', { body: { name: 'secret_6', kind: 'value', value: 'value-6', origins: ORIGINS } })
    expect(refused.status).toBe(409)
    expect(refused.code).toBe('PLAN_LIMIT')
    expect(refused.message).toBe(
      'The Free plan holds up to 5 secrets in the vault. The Pro plan holds more: upgrade, or delete a secret first.',
    )
    await call(account, `/api/vault/${ids[0]}`, { method: 'DELETE' })
    expect(
      (await call(account, '/api/vault', { body: { name: 'secret_6', kind: 'value', value: 'value-6', origins: ORIGINS } })).status,
    ).toBe(201)
    // An admin's edit of the plan applies at once: a vault of none says so.
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, account.id))
    expect(
      (await call(account, '/api/vault', { body: { name: 'secret_7', kind: 'value', value: 'value-7', origins: ORIGINS } })).status,
    ).toBe(201)
  })
})

describe('the vault size under concurrent additions', () => {
  it('lets only as many in as the plan holds, however many are sent at once', async () => {
    const account = await t.signUp()
    for (let i = 1; i <= 4; i++)
      await call(account, '/api/vault', { body: { name: `kept_${i}`, kind: 'value', value: `value-${i}`, origins: ORIGINS } })
    const answers = await Promise.all(
      [1, 2, 3].map((i) =>
        call(account, '/api/vault', { body: { name: `racing_${i}`, kind: 'value', value: `racing-${i}`, origins: ORIGINS } }),
      ),
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409])
    expect((await call<Secret[]>(account, '/api/vault')).data).toHaveLength(5)
  })
})

describe('automations name secrets that exist', () => {
  const login = (text: string) => [
    { type: 'navigate', url: 'https://shop.example.com/login' },
    { type: 'type', target: [{ by: 'label', text: 'Password' }], text },
  ]

  it('refuses steps that name a secret the vault lacks, or a secret used the wrong way, naming the step', async () => {
    const unknown = await call(owner, '/api/automations', { body: { name: 'Sign in', steps: login('{{secrets.nope}}') } })
    expect(unknown.status).toBe(400)
    expect(unknown.message).toBe('Step 2 uses {{secrets.nope}}, but the vault has no secret named nope. Add it in Vault first.')
    // Under the field that names it, as the builder shows a step's problems.
    expect(unknown.issues?.[0]?.path).toBe('steps.1.text')
    const totpAsSecret = await call(owner, '/api/automations', { body: { name: 'Sign in', steps: login('{{secrets.shop_totp}}') } })
    expect(totpAsSecret.status).toBe(400)
    expect(totpAsSecret.message).toContain('use {{totp.shop_totp}}')
    const passwordAsTotp = await call(owner, '/api/automations', { body: { name: 'Sign in', steps: login('{{totp.shop_password}}') } })
    expect(passwordAsTotp.status).toBe(400)
    expect(passwordAsTotp.message).toContain('is not a TOTP secret')
  })

  it('accepts steps that name secrets it holds, and keeps the placeholders in the steps', async () => {
    const created = await call<{ id: string; steps: { text?: string }[] }>(owner, '/api/automations', {
      body: { name: 'Sign in', steps: login('{{secrets.shop_password}} {{totp.shop_totp}}') },
    })
    expect(created.status).toBe(201)
    expect(created.data.steps[1]?.text).toBe('{{secrets.shop_password}} {{totp.shop_totp}}')
    const changed = await call(owner, `/api/automations/${created.data.id}`, { method: 'PUT', body: { steps: login('{{secrets.gone}}') } })
    expect(changed.status).toBe(400)
  })
})
