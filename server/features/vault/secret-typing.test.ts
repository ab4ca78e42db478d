import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { automationRuns, automations, vaultSecrets, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startOriginSite, type OriginSite } from '#server/testing/origin-site.ts'
import { runToEnd } from '#server/testing/run-to-end.ts'

// Secrets bound to origins in the executor, in a real Chromium (docs/decisions/039): a vault value
// is typed only into a field whose frame (and every frame around it) shows a page of one of the
// secret's origins at the moment of typing, after redirects; a step that would place it anywhere
// else, stored from before the rule, stops the run before any value is read; and whoever started
// the run must still be allowed to use it when it runs. Two local sites on two ports are two origins.

const TOKEN = 'planted-Token-5e1f0c27'

let t: TestApp
let home: OriginSite
let other: OriginSite
let owner: Awaited<ReturnType<TestApp['signUp']>>
let admin: Awaited<ReturnType<TestApp['signUp']>>
let member: Awaited<ReturnType<TestApp['signUp']>>
let team: string

async function call<T>(account: { token: string }, path: string, body?: unknown, method?: string) {
  const response = await t.request(path, { method, token: account.token, body, headers: { 'x-workspace-id': team } })
  const text = await response.text()
  return { status: response.status, ...(JSON.parse(text) as { data: T; message?: string }) }
}

async function automationOf(steps: AutomationStep[], account = owner): Promise<string> {
  const created = await call<{ id: string }>(account, '/api/automations', { name: 'Send the token', steps })
  expect(created.status, created.message).toBe(201)
  return created.data.id
}

async function run(automationId: string, account = owner) {
  const started = await call<{ id: string }>(account, `/api/automations/${automationId}/runs`, { where: 'cloud' })
  expect(started.status, started.message).toBe(201)
  return runToEnd(t, started.data.id)
}

/** A run stored as it was queued before the rule (its steps are not checked again when stored). */
async function storedRun(steps: AutomationStep[]) {
  const [row] = await t.db
    .insert(automationRuns)
    .values({
      automationName: 'From before',
      workspaceId: team,
      userId: owner.id,
      status: 'queued',
      trigger: 'manual',
      runner: 'cloud',
      steps,
    })
    .returning()
  return runToEnd(t, row?.id ?? '')
}

const typeToken = (target: Extract<AutomationStep, { type: 'type' }>['target'] = [{ by: 'label', text: 'Token' }]): AutomationStep => ({
  type: 'type',
  target,
  text: '{{secrets.site_token}}',
})
const send: AutomationStep = { type: 'click', target: [{ by: 'role', role: 'button', name: 'Send' }] }

beforeAll(async () => {
  home = await startOriginSite()
  other = await startOriginSite()
  home.links.away = `${other.url}/login`
  home.links.frame = `${other.url}/login`
  other.links.frame = `${home.url}/login`
  t = await createTestApp({ privateTargets: 'loopback' })
  owner = await t.signUp()
  admin = await t.signUp()
  member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 500 }).where(eq(workspaces.id, owner.id))
  const created = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Typing team' } })
  team = ((await created.json()) as { data: { id: string } }).data.id
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 500 }).where(eq(workspaces.id, team))
  await t.db.insert(workspaceMembers).values([
    { workspaceId: team, userId: admin.id, role: 'admin' },
    { workspaceId: team, userId: member.id, role: 'member' },
  ])
  const secret = await call(owner, '/api/vault', { name: 'site_token', kind: 'value', value: TOKEN, origins: [home.url] })
  expect(secret.status, secret.message).toBe(201)
})
afterAll(async () => {
  await t?.close()
  await home?.close()
  await other?.close()
})

/** Nothing of the value reached the other site: no form, no keystroke, no address. */
function expectNothingReached(site: OriginSite) {
  expect(site.posted).toEqual([])
  expect(site.keystrokes).toEqual([])
  expect(site.requests.filter((request) => request.includes(TOKEN) || decodeURIComponent(request).includes(TOKEN))).toEqual([])
}

describe('a secret is typed only on its own sites', () => {
  it('types it into a field of one of its origins', async () => {
    const row = await run(
      await automationOf([{ type: 'navigate', url: `${home.url}/login` }, typeToken(), send, { type: 'assertText', text: 'Signed in' }]),
    )
    expect(row.error).toBeNull()
    expect(row.status).toBe('succeeded')
    expect(home.posted.at(-1)).toEqual({ token: TOKEN })
    expect(JSON.stringify(row)).not.toContain(TOKEN)
  }, 120_000)

  it('refuses when the page it opened redirected to another origin, and types nothing there', async () => {
    const row = await run(await automationOf([{ type: 'navigate', url: `${home.url}/away` }, typeToken(), send]))
    expect(row.status).toBe('failed')
    expect(row.error).toBe(
      `Step 2 (type): {{secrets.site_token}} may only be typed on ${home.url}; the field is on a page of ${other.url} (the value was not typed)`,
    )
    expectNothingReached(other)
  }, 120_000)

  it('refuses a field in a frame of another origin, even on a page of its own', async () => {
    const inFrame = typeToken([{ by: 'css', selector: 'iframe >> internal:control=enter-frame >> input[name=token]' }])
    const row = await run(await automationOf([{ type: 'navigate', url: `${home.url}/framed` }, inFrame]))
    expect(row.status).toBe('failed')
    expect(row.error).toBe(
      `Step 2 (type): {{secrets.site_token}} may only be typed on ${home.url}; the field is in a frame of ${other.url} (the value was not typed)`,
    )
    expectNothingReached(other)
  }, 120_000)

  it('refuses a field of its own origin inside a page of another', async () => {
    const inFrame = typeToken([{ by: 'css', selector: 'iframe >> internal:control=enter-frame >> input[name=token]' }])
    const before = home.keystrokes.length
    const row = await run(await automationOf([{ type: 'navigate', url: `${other.url}/framed` }, inFrame]))
    expect(row.status).toBe('failed')
    expect(row.error).toBe(
      `Step 2 (type): {{secrets.site_token}} may only be typed on ${home.url}; the field is inside a page of ${other.url} (the value was not typed)`,
    )
    expect(home.keystrokes.slice(before)).toEqual([])
  }, 120_000)

  it('refuses a secret that names no site any more (its sites were emptied after the automation was saved)', async () => {
    const automationId = await automationOf([{ type: 'navigate', url: `${home.url}/login` }, typeToken()])
    await t.db.update(vaultSecrets).set({ origins: [] }).where(eq(vaultSecrets.name, 'site_token'))
    try {
      const before = home.keystrokes.length
      const row = await run(automationId)
      expect(row.error).toBe(
        'Step 2 (type): {{secrets.site_token}} names no site it may be typed on: name its sites in Vault (the value was not typed)',
      )
      expect(home.keystrokes.slice(before)).toEqual([])
    } finally {
      await t.db
        .update(vaultSecrets)
        .set({ origins: [home.url] })
        .where(eq(vaultSecrets.name, 'site_token'))
    }
  }, 120_000)
})

describe('steps stored before the rule', () => {
  for (const [where, steps, message] of [
    [
      'an address',
      [{ type: 'navigate', url: `{{OTHER}}/echo?q={{secrets.site_token}}` }],
      'Step 1 (navigate): {{secrets.site_token}} may only be typed into a field (the text of a type step), never placed in the address to open.',
    ],
    [
      'an extraction',
      [
        { type: 'navigate', url: `{{OTHER}}/echo?q=x` },
        { type: 'extract', target: [{ by: 'css', selector: '#asked' }], field: 'asked', attribute: '{{secrets.site_token}}' },
      ],
      'Step 2 (extract): {{secrets.site_token}} may only be typed into a field (the text of a type step), never placed in the attribute to read.',
    ],
    [
      'an assertion',
      [
        { type: 'navigate', url: `{{OTHER}}/echo?q=x` },
        { type: 'assertText', text: '{{secrets.site_token}}' },
      ],
      'Step 2 (assertText): {{secrets.site_token}} may only be typed into a field (the text of a type step), never placed in the text to check for.',
    ],
  ] as [string, AutomationStep[], string][]) {
    it(`stop a run with a secret in ${where} before anything is read or opened`, async () => {
      const requests = other.requests.length
      const row = await storedRun(JSON.parse(JSON.stringify(steps).replaceAll('{{OTHER}}', other.url)) as AutomationStep[])
      expect(row.status).toBe('failed')
      expect(row.error).toBe(message)
      expect(row.startedAt).not.toBeNull()
      expect(other.requests.slice(requests)).toEqual([])
      expectNothingReached(other)
    }, 120_000)
  }
})

describe('who may use a secret, when the run runs', () => {
  it('fails a queued run whose starter may no longer use the secret, typing nothing', async () => {
    await t.db.update(vaultSecrets).set({ useRole: 'admin' }).where(eq(vaultSecrets.name, 'site_token'))
    try {
      const automationId = await automationOf([{ type: 'navigate', url: `${home.url}/login` }, typeToken(), send], admin)
      const started = await call<{ id: string }>(admin, `/api/automations/${automationId}/runs`, { where: 'cloud' })
      expect(started.status, started.message).toBe(201)
      // Made a member while the run waited in the queue.
      await t.db.update(workspaceMembers).set({ role: 'member' }).where(eq(workspaceMembers.userId, admin.id))
      const posted = home.posted.length
      const keystrokes = home.keystrokes.length
      const row = await runToEnd(t, started.data.id)
      expect(row.status).toBe('failed')
      expect(row.error).toBe(
        'Step 2 (type): {{secrets.site_token}} may be used only by admins and the owner in their automations, and the run was started by a member; the value was not typed',
      )
      expect(home.posted.length).toBe(posted)
      expect(home.keystrokes.length).toBe(keystrokes)
      const [automation] = await t.db.select().from(automations).where(eq(automations.id, automationId))
      expect(automation).toBeDefined()
    } finally {
      await t.db.update(workspaceMembers).set({ role: 'admin' }).where(eq(workspaceMembers.userId, admin.id))
      await t.db.update(vaultSecrets).set({ useRole: 'member' }).where(eq(vaultSecrets.name, 'site_token'))
    }
  }, 120_000)
})

describe('the review of issue 27 (docs/decisions/039, amended)', () => {
  it('F1: a member cannot add their own site to the secret without its value, so a run there types nothing', async () => {
    const [secret] = await t.db.select().from(vaultSecrets).where(eq(vaultSecrets.name, 'site_token'))
    const widened = await call(member, `/api/vault/${secret?.id ?? ''}`, { origins: [home.url, other.url] }, 'PATCH')
    expect(widened.status, widened.message).toBe(400)
    expect(widened.message).toBe("To add a site, enter the secret's current value: only someone who knows it may send it to another site.")
    const row = await run(await automationOf([{ type: 'navigate', url: `${other.url}/login` }, typeToken(), send], member), member)
    expect(row.status).toBe('failed')
    expect(row.error).toBe(
      `Step 2 (type): {{secrets.site_token}} may only be typed on ${home.url}; the field is on a page of ${other.url} (the value was not typed)`,
    )
    expectNothingReached(other)
  }, 120_000)

  const token = [{ by: 'label' as const, text: 'Token' }]
  const backspace: AutomationStep = { type: 'press', key: 'Backspace', target: token }
  const readBack: AutomationStep[] = [
    { type: 'navigate', url: '{{HOME}}/login' },
    typeToken(),
    backspace,
    { type: 'extract', target: token, field: 'v', attribute: 'value' },
  ]
  const withHome = (steps: AutomationStep[]) => JSON.parse(JSON.stringify(steps).replaceAll('{{HOME}}', home.url)) as AutomationStep[]

  it("F2: the review's read-back (type, Backspace, extract the value) is not saved, and a stored run of it stops before typing", async () => {
    const refused = await call(member, '/api/automations', { name: 'Read it back', steps: withHome(readBack) })
    expect(refused.status, refused.message).toBe(400)
    const keystrokes = home.keystrokes.length
    const row = await storedRun(withHome(readBack))
    expect(row.status).toBe('failed')
    expect(row.error).toBe(
      'Step 4 (extract): this automation types {{secrets.site_token}} (step 2), so no step may read what a field holds: extract the text of the page, not the attribute value.',
    )
    expect(row.extracted).toEqual([])
    expect(JSON.stringify(row)).not.toContain(TOKEN.slice(0, -1))
    expect(home.keystrokes.slice(keystrokes)).toEqual([])
  }, 120_000)

  it('F2: a secret is never typed into editable text, whose text a step could read back', async () => {
    const editable = [{ by: 'role' as const, role: 'textbox' as const, name: 'Token' }]
    const row = await run(
      await automationOf([
        { type: 'navigate', url: `${home.url}/notes` },
        typeToken(editable),
        { type: 'press', key: 'Backspace', target: editable },
        { type: 'extract', target: editable, field: 'note' },
      ]),
    )
    expect(row.status).toBe('failed')
    expect(row.error).toBe(
      'Step 2 (type): {{secrets.site_token}} may only be typed into a form field (an input or a text area); this is an editable <div>, whose text the page shows (the value was not typed)',
    )
    expect(row.extracted).toEqual([])
    expect(JSON.stringify(row)).not.toContain(TOKEN.slice(0, -1))
  }, 120_000)

  it('F3: sites set from the automations work for 30 days, then not until someone who knows the value confirms them', async () => {
    const automationId = await automationOf([{ type: 'navigate', url: `${home.url}/login` }, typeToken(), send])
    const setFromSteps = (daysAgo: number) =>
      t.db
        .update(vaultSecrets)
        .set({ originsFromStepsAt: new Date(Date.now() - daysAgo * 86_400_000) })
        .where(eq(vaultSecrets.name, 'site_token'))
    try {
      await setFromSteps(31)
      const posted = home.posted.length
      const lapsed = await run(automationId)
      expect(lapsed.status).toBe('failed')
      expect(lapsed.error).toBe(
        'Step 2 (type): {{secrets.site_token}} may be typed only on sites confirmed by someone who knows the value: its sites were set from the automations and nobody confirmed them in Vault (the value was not typed)',
      )
      expect(home.posted.length).toBe(posted)

      await setFromSteps(29)
      const recent = await run(automationId)
      expect(recent.error).toBeNull()
      expect(home.posted.at(-1)).toEqual({ token: TOKEN })
    } finally {
      await t.db.update(vaultSecrets).set({ originsFromStepsAt: null }).where(eq(vaultSecrets.name, 'site_token'))
    }
  }, 180_000)
})
