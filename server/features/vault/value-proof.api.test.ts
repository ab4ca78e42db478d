import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADD_SITE_NEEDS_VALUE, UNCONFIRMED_SITES_DAYS, VAULT_VALUE_PROOF_RATE_LIMIT } from '#common/vault.ts'
import { auditLog, vaultSecrets, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { sameValue } from './value-proof.ts'

// Only someone who knows a secret's value may widen where it is typed (docs/decisions/039,
// amended after the review of issue 27): a PATCH that adds a site carries the value, checked in
// constant time after unsealing; removing sites and changing the role need no value; tries are
// limited per secret and a wrong one is in the activity. Sites migration 0023 took from the
// automations are confirmed only with the value, and stop working when nobody confirms them in time.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Secret = { id: string; name: string; origins: string[]; useRole: string; originsSetFromSteps: boolean }
type Answer<T> = { status: number; data: T; message?: string; code?: string; issues?: { path: string; message: string }[] }

const HOME = 'https://app.example.com'
const ATTACKER = 'https://attacker.example'
const TOKEN = 'site-token-7f3a9c'
const DAY_MS = 86_400_000

let t: TestApp
let owner: Account
let member: Account
let team: string

async function call<T>(account: Account, path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = team ? { 'x-workspace-id': team } : {}
  const response = await t.request(path, { method: init.method, body: init.body, token: account.token, headers })
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

const patch = (account: Account, id: string, body: unknown) => call<Secret>(account, `/api/vault/${id}`, { method: 'PATCH', body })

async function addSecret(name: string, body: Record<string, unknown> = {}): Promise<string> {
  const created = await call<Secret>(owner, '/api/vault', { body: { name, kind: 'value', value: TOKEN, origins: [HOME], ...body } })
  expect(created.status, created.message).toBe(201)
  return created.data.id
}

async function originsOf(id: string) {
  const [row] = await t.db.select().from(vaultSecrets).where(eq(vaultSecrets.id, id))
  return row?.origins
}

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, owner.id))
  team = (await call<{ id: string }>(owner, '/api/workspaces', { body: { name: 'Proof team' } })).data.id
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, team))
  await t.db.insert(workspaceMembers).values({ workspaceId: team, userId: member.id, role: 'member' })
})
afterAll(async () => {
  await t?.close()
})

describe('adding a site to a secret', () => {
  it("is refused to a member who does not send the value (the review's case), and taken with it", async () => {
    const id = await addSecret('site_token')
    // The review: a plain member adds the attacker's origin beside the secret's own.
    const refused = await patch(member, id, { origins: [HOME, ATTACKER] })
    expect(refused).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: ADD_SITE_NEEDS_VALUE,
      issues: [{ path: 'value', message: ADD_SITE_NEEDS_VALUE }],
    })
    // Swapping the site for another is adding one too.
    expect((await patch(member, id, { origins: [ATTACKER] })).status).toBe(400)
    expect(await originsOf(id)).toEqual([HOME])

    const added = await patch(member, id, { origins: [HOME, ATTACKER], value: TOKEN })
    expect(added.status, added.message).toBe(200)
    expect(added.data.origins).toEqual([HOME, ATTACKER])
  })

  it('refuses a wrong value (403), writes the try to the activity and changes nothing', async () => {
    const id = await addSecret('wrong_guess')
    const refused = await patch(member, id, { origins: [HOME, ATTACKER], value: `${TOKEN}x` })
    const message = 'That is not the current value of wrong_guess: only someone who knows it may change where wrong_guess may be typed.'
    expect(refused).toMatchObject({ status: 403, code: 'FORBIDDEN', message, issues: [{ path: 'value', message }] })
    // A value of another length, or an empty one, is as wrong.
    expect((await patch(member, id, { origins: [HOME, ATTACKER], value: TOKEN.slice(0, -1) })).status).toBe(403)
    expect((await patch(member, id, { origins: [HOME, ATTACKER], value: '' })).status).toBe(400)
    expect(await originsOf(id)).toEqual([HOME])
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.targetId, id))
    expect(entries.filter((entry) => entry.action === 'secret.value.refused').map((entry) => [entry.actorId, entry.summary])).toEqual([
      [member.id, 'Tried to change where wrong_guess may be typed with a value that is not the current value of wrong_guess (refused)'],
      [member.id, 'Tried to change where wrong_guess may be typed with a value that is not the current value of wrong_guess (refused)'],
    ])
    expect(JSON.stringify(entries)).not.toContain(TOKEN)
  })

  it('needs no value to remove a site or to change who may use it', async () => {
    const id = await addSecret('narrowed', { origins: [HOME, 'https://auth.example.com'] })
    const removed = await patch(member, id, { origins: [HOME] })
    expect(removed.status, removed.message).toBe(200)
    expect(removed.data.origins).toEqual([HOME])
    const role = await patch(owner, id, { useRole: 'admin' })
    expect(role.status, role.message).toBe(200)
    expect(role.data).toMatchObject({ origins: [HOME], useRole: 'admin' })
  })

  it('takes the value of a TOTP key in any form it is pasted in', async () => {
    const id = await addSecret('shop_code', { kind: 'totp', value: 'JBSWY3DPEHPK3PXP' })
    const added = await patch(member, id, {
      origins: [HOME, ATTACKER],
      value: 'otpauth://totp/Shop?secret=jbsw y3dp ehpk 3pxp&issuer=Shop',
    })
    expect(added.status, added.message).toBe(200)
  })

  it(`counts every try of a secret's value, whoever makes it: past ${VAULT_VALUE_PROOF_RATE_LIMIT.limit} an hour, 429 even for the right one`, async () => {
    const id = await addSecret('guessed')
    for (let i = 0; i < VAULT_VALUE_PROOF_RATE_LIMIT.limit; i++) {
      expect((await patch(i % 2 ? owner : member, id, { origins: [HOME, ATTACKER], value: `guess-${i}` })).status).toBe(403)
    }
    const limited = await patch(owner, id, { origins: [HOME, ATTACKER], value: TOKEN })
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED' })
    expect(limited.message).toBe(
      `At most ${VAULT_VALUE_PROOF_RATE_LIMIT.limit} tries of the value of guessed an hour. Please wait and try again.`,
    )
    expect(await originsOf(id)).toEqual([HOME])
  })

  it('compares values in constant time, whatever their lengths', () => {
    expect(sameValue(TOKEN, TOKEN)).toBe(true)
    expect(sameValue(TOKEN, `${TOKEN} `)).toBe(false)
    expect(sameValue('', TOKEN)).toBe(false)
    expect(sameValue('é', 'e\u0301')).toBe(false)
  })
})

describe('sites set from the automations (migration 0023)', () => {
  async function migrated(name: string, daysAgo: number): Promise<string> {
    const id = await addSecret(name)
    await t.db
      .update(vaultSecrets)
      .set({ originsFromStepsAt: new Date(Date.now() - daysAgo * DAY_MS) })
      .where(eq(vaultSecrets.id, id))
    return id
  }
  const signIn = (name: string) => [
    { type: 'navigate', url: `${HOME}/login` },
    { type: 'type', target: [{ by: 'label', text: 'Token' }], text: `{{secrets.${name}}}` },
  ]

  it('are confirmed only with the value: a member without it cannot vouch for them, nor add one', async () => {
    const id = await migrated('from_steps', 1)
    expect((await patch(member, id, { origins: [HOME, ATTACKER] })).status).toBe(400)
    const kept = await patch(member, id, { origins: [HOME], useRole: 'member' })
    expect(kept.data.originsSetFromSteps).toBe(true)
    const confirmed = await patch(member, id, { useRole: 'member', value: TOKEN })
    expect(confirmed.status, confirmed.message).toBe(200)
    expect(confirmed.data).toMatchObject({ origins: [HOME], originsSetFromSteps: false })
  })

  it(`work for ${UNCONFIRMED_SITES_DAYS} days: then an automation that types the secret is not saved until they are confirmed`, async () => {
    await migrated('recent', UNCONFIRMED_SITES_DAYS - 1)
    const id = await migrated('lapsed', UNCONFIRMED_SITES_DAYS + 1)
    expect((await call(member, '/api/automations', { body: { name: 'Recent', steps: signIn('recent') } })).status).toBe(201)
    const refused = await call(member, '/api/automations', { body: { name: 'Lapsed', steps: signIn('lapsed') } })
    const message = `Step 2 uses {{secrets.lapsed}}, but the sites of lapsed were set from the automations and nobody who knows its value confirmed them within ${UNCONFIRMED_SITES_DAYS} days: confirm them in Vault first.`
    expect(refused).toMatchObject({ status: 400, message, issues: [{ path: 'steps.1.text', message }] })
    expect((await patch(owner, id, { origins: [HOME], value: TOKEN })).data.originsSetFromSteps).toBe(false)
    expect((await call(member, '/api/automations', { body: { name: 'Lapsed', steps: signIn('lapsed') } })).status).toBe(201)
  })
})
