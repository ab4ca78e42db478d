import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADD_SITE_NEEDS_VALUE, CONFIRM_SITES_NEEDS_VALUE } from '#common/vault.ts'
import { vaultSecrets, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { action } from './workspace-vault.tsx'

// The Vault page's forms as a member sends them (docs/decisions/039, amended): "Sites and roles"
// adds a site only with the secret's current value (a field error says so), removes one without
// it; "These sites are right" confirms sites set from the automations with the value and can add
// none, whatever the form carries.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type ActionArgs = Parameters<typeof action>[0]
type Answer = { ok: boolean; field?: string; error?: { description?: string } }

const HOME = 'https://app.example.com'
const ATTACKER = 'https://attacker.example'
const TOKEN = 'page-token-41d2'

let t: TestApp
let owner: Account
let member: Account
let team: string

async function send(account: Account, fields: Record<string, string>): Promise<{ status: number } & Answer> {
  const request = new Request(`${TEST_PUBLIC_URL}/workspace/vault`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
  const result = (await action({ request, params: {}, context: await t.pageContext(account, team) } as unknown as ActionArgs)) as {
    data: Answer
    init: ResponseInit | null
  }
  return { status: result.init?.status ?? 200, ...result.data }
}

async function secret(name: string) {
  const [row] = await t.db.select().from(vaultSecrets).where(eq(vaultSecrets.name, name))
  if (!row) throw new Error(`no secret ${name}`)
  return row
}

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  const created = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Page team' } })
  team = ((await created.json()) as { data: { id: string } }).data.id
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, team))
  await t.db.insert(workspaceMembers).values({ workspaceId: team, userId: member.id, role: 'member' })
  for (const name of ['page_token', 'from_steps']) {
    const added = await send(owner, { intent: 'add-secret', name, kind: 'value', value: TOKEN, origins: HOME, useRole: 'member' })
    expect(added.ok).toBe(true)
  }
})
afterAll(async () => {
  await t?.close()
})

describe('Sites and roles', () => {
  it('asks for the value, on its field, when a member adds a site, and adds it once given', async () => {
    const { id } = await secret('page_token')
    const refused = await send(member, { intent: `secret-rules-${id}`, origins: `${HOME}\n${ATTACKER}`, useRole: 'member' })
    expect(refused).toMatchObject({ status: 400, ok: false, field: 'value', error: { description: ADD_SITE_NEEDS_VALUE } })
    expect((await secret('page_token')).origins).toEqual([HOME])

    const wrong = await send(member, { intent: `secret-rules-${id}`, origins: `${HOME}\n${ATTACKER}`, useRole: 'member', value: 'nope' })
    expect(wrong).toMatchObject({ status: 403, ok: false, field: 'value' })
    expect((await secret('page_token')).origins).toEqual([HOME])

    const added = await send(member, { intent: `secret-rules-${id}`, origins: `${HOME}\n${ATTACKER}`, useRole: 'member', value: TOKEN })
    expect(added).toMatchObject({ status: 200, ok: true })
    expect((await secret('page_token')).origins).toEqual([HOME, ATTACKER])

    // Removing a site needs no value (an empty value field is no value).
    const removed = await send(member, { intent: `secret-rules-${id}`, origins: HOME, useRole: 'member', value: '' })
    expect(removed).toMatchObject({ status: 200, ok: true })
    expect((await secret('page_token')).origins).toEqual([HOME])
  })
})

describe('These sites are right', () => {
  it('confirms sites set from the automations only with the value, and adds no site the form carries', async () => {
    const { id } = await secret('from_steps')
    await t.db.update(vaultSecrets).set({ originsFromStepsAt: new Date() }).where(eq(vaultSecrets.id, id))

    const without = await send(member, { intent: `confirm-sites-${id}`, origins: `${HOME}\n${ATTACKER}` })
    expect(without).toMatchObject({ status: 400, ok: false, field: 'value', error: { description: CONFIRM_SITES_NEEDS_VALUE } })
    expect((await secret('from_steps')).originsFromStepsAt).not.toBeNull()

    const confirmed = await send(member, { intent: `confirm-sites-${id}`, origins: `${HOME}\n${ATTACKER}`, value: TOKEN })
    expect(confirmed).toMatchObject({ status: 200, ok: true })
    const after = await secret('from_steps')
    expect(after.originsFromStepsAt).toBeNull()
    expect(after.origins).toEqual([HOME])
  })
})
