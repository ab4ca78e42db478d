import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { automations, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// An automation that types a vault value may not read a field back (docs/decisions/039, amended
// after the review of issue 27): masking hides exact copies only, and a value typed and then
// edited in its field (a Backspace) is no exact copy. Refused when saved, naming the step and
// field, and when a run of an automation stored before the rule is queued. (The executor's own
// check, in a real browser: secret-typing.test.ts.)

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string; issues?: { path: string; message: string }[] }

const HOME = 'https://app.example.com'
const token = [{ by: 'label' as const, text: 'Token' }]
const MESSAGE =
  'Step 4 (extract): this automation types {{secrets.site_token}} (step 2), so no step may read what a field holds: extract the text of the page, not the attribute value.'

/** The review's run: type the secret, press Backspace in its field, extract the field's value. */
const reviewSteps: AutomationStep[] = [
  { type: 'navigate', url: `${HOME}/login` },
  { type: 'type', target: token, text: '{{secrets.site_token}}' },
  { type: 'press', key: 'Backspace', target: token },
  { type: 'extract', target: token, field: 'v', attribute: 'value' },
]

let t: TestApp
let owner: Account
let member: Account
let team: string

async function call<T>(account: Account, path: string, body?: unknown, method?: string): Promise<Answer<T>> {
  const headers: Record<string, string> = team ? { 'x-workspace-id': team } : {}
  const response = await t.request(path, { method, body, token: account.token, headers })
  return { status: response.status, ...((await response.json()) as Omit<Answer<T>, 'status'>) }
}

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, owner.id))
  team = (await call<{ id: string }>(owner, '/api/workspaces', { name: 'Read-back team' })).data.id
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, team))
  await t.db.insert(workspaceMembers).values({ workspaceId: team, userId: member.id, role: 'member' })
  const secret = await call(owner, '/api/vault', { name: 'site_token', kind: 'value', value: 'token-0123', origins: [HOME] })
  expect(secret.status, secret.message).toBe(201)
})
afterAll(async () => {
  await t?.close()
})

describe('reading a field back where a secret is typed', () => {
  it("refuses the review's automation when saved, naming the step and field", async () => {
    const refused = await call(member, '/api/automations', { name: 'Read it back', steps: reviewSteps })
    expect(refused).toMatchObject({ status: 400, message: MESSAGE, issues: [{ path: 'steps.3.attribute', message: MESSAGE }] })
  })

  it('refuses it in an automation whose sign-in block types the secret, and on a change, keeping the automation as it was', async () => {
    const saved = await call<{ id: string }>(member, '/api/automations', {
      name: 'Sign in, then read',
      steps: [...reviewSteps.slice(0, 2), { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] }],
      signInBlock: { from: 2, to: 3, check: { target: [{ by: 'text', text: 'Sign in' }], present: 'signedOut' } },
    })
    expect(saved.status, saved.message).toBe(201)
    const changed = await call(member, `/api/automations/${saved.data.id}`, { steps: reviewSteps }, 'PUT')
    expect(changed).toMatchObject({ status: 400, issues: [{ path: 'steps.3.attribute' }] })
    const waitByValue = await call(
      member,
      `/api/automations/${saved.data.id}`,
      { steps: [...reviewSteps.slice(0, 2), { type: 'wait', target: [{ by: 'css', selector: 'input[value^="t"]' }] }] },
      'PUT',
    )
    expect(waitByValue).toMatchObject({ status: 400, issues: [{ path: 'steps.2.target.0.selector' }] })
    const [row] = await t.db.select().from(automations).where(eq(automations.id, saved.data.id))
    expect(row?.steps).toHaveLength(3)
  })

  it('keeps extracting text after typing a secret, and values where none is typed', async () => {
    const text = await call(member, '/api/automations', {
      name: 'Sign in and read the page',
      steps: [...reviewSteps.slice(0, 3), { type: 'extract', target: [{ by: 'css', selector: 'h1' }], field: 'title' }],
    })
    expect(text.status, text.message).toBe(201)
    const noSecret = await call(member, '/api/automations', {
      name: 'Search',
      steps: [reviewSteps[0], { type: 'type', target: token, text: 'rain jacket' }, reviewSteps[3]],
    })
    expect(noSecret.status, noSecret.message).toBe(201)
  })

  it('does not queue a run of an automation stored before the rule', async () => {
    const saved = await call<{ id: string }>(member, '/api/automations', { name: 'Stored', steps: reviewSteps.slice(0, 3) })
    await t.db.update(automations).set({ steps: reviewSteps }).where(eq(automations.id, saved.data.id))
    const refused = await call(member, `/api/automations/${saved.data.id}/runs`, { where: 'cloud' })
    expect(refused).toMatchObject({ status: 400, message: `${MESSAGE} Change the step first.`, issues: [{ path: 'steps.3.attribute' }] })
  })
})
