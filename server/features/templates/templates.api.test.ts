import { and, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, automations, automationTemplates, subscriptionPlans, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// The template gallery through the API (docs/decisions/022): the admin's writes, members browsing
// and using templates in their current workspace, inputs, plans, roles and API keys.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Template = {
  id: string
  slug: string
  name: string
  category: string
  published: boolean
  advanced: boolean
  locked: string | null
  preview: string[]
  inputs: { name: string }[]
}
type Automation = { id: string; name: string; workspaceId: string; steps: Record<string, unknown>[]; description: string }
type Answer<T> = { status: number; data: T; message?: string; code?: string; issues?: { path: string; message: string }[] }

let t: TestApp
let admin: Account
let member: Account

const SEARCH = {
  name: 'Search a shop',
  category: 'site-navigation',
  description: 'Searches a shop for your words.',
  inputs: [
    { name: 'start_url', label: 'Shop address', example: 'https://shop.example.com/' },
    { name: 'search_term', label: 'Search for', example: 'rain jacket' },
    { name: 'note', label: 'Note', example: 'from a template', required: false, defaultValue: 'none' },
  ],
  steps: [
    { type: 'navigate', url: '{{start_url}}' },
    { type: 'type', target: [{ by: 'role', role: 'searchbox', name: 'Search' }], text: '{{search_term}}' },
    { type: 'type', target: [{ by: 'label', text: 'Note' }], text: '{{note}}' },
    { type: 'press', key: 'Enter' },
  ],
}

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
  const body = (await response.json()) as Omit<Answer<T>, 'status'>
  return { ...body, status: response.status }
}

async function createTemplate(fields: Record<string, unknown> = {}): Promise<Template> {
  const answer = await call<Template>(admin, '/api/templates', { body: { ...SEARCH, ...fields } })
  expect(answer.status, JSON.stringify(answer)).toBe(201)
  return answer.data
}

const use = (account: Account | string, id: string, body: unknown, workspace?: string) =>
  call<Automation>(account, `/api/templates/${id}/use`, { body, workspace })

const VALUES = { start_url: 'https://boots.example.org/', search_term: 'walking boots' }

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
  member = await t.signUp()
})
afterAll(async () => {
  await t.close()
})

describe('admin: writing templates', () => {
  it('adds a draft, checks its steps with the examples, publishes, edits, unpublishes and deletes it, each in the audit log', async () => {
    const draft = await createTemplate({ name: 'Admin lifecycle' })
    expect(draft).toMatchObject({ slug: 'admin-lifecycle', published: false, advanced: false, locked: null })
    expect(draft.preview).toEqual([
      'Go to https://shop.example.com/',
      'Type “rain jacket” into Search field named “Search”',
      'Type “none” into Field labelled “Note”',
      'Press Enter',
    ])
    // Members do not see a draft, nor can they use it.
    expect((await call(member, `/api/templates/${draft.id}`)).status).toBe(404)
    expect((await use(member, draft.id, { inputs: VALUES })).status).toBe(404)
    expect((await call<Template[]>(member, '/api/templates')).data.map((row) => row.id)).not.toContain(draft.id)
    // The admin reads it, and lists it with scope=all.
    expect((await call<Template>(admin, `/api/templates/${draft.id}`)).data.id).toBe(draft.id)
    expect((await call<Template[]>(admin, '/api/templates?scope=all')).data.map((row) => row.id)).toContain(draft.id)

    const published = await call<Template>(admin, `/api/templates/${draft.id}`, { method: 'PUT', body: { published: true } })
    expect(published.data.published).toBe(true)
    expect((await call<Template>(member, `/api/templates/${draft.id}`)).status).toBe(200)

    const renamed = await call<Template>(admin, `/api/templates/${draft.id}`, {
      method: 'PUT',
      body: { name: 'Renamed', category: 'scraping' },
    })
    expect(renamed.data).toMatchObject({ name: 'Renamed', category: 'scraping', slug: 'admin-lifecycle', published: true })

    await call(admin, `/api/templates/${draft.id}`, { method: 'PUT', body: { published: false } })
    expect((await call(member, `/api/templates/${draft.id}`)).status).toBe(404)

    expect((await call(admin, `/api/templates/${draft.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await call(admin, `/api/templates/${draft.id}`)).status).toBe(404)
    expect((await call(admin, `/api/templates/${draft.id}`, { method: 'DELETE' })).status).toBe(404)

    const entries = await t.db
      .select({ action: auditLog.action, summary: auditLog.summary, actor: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'template'), eq(auditLog.targetId, draft.id)))
      .orderBy(auditLog.createdAt)
    expect(entries.map((entry) => entry.action)).toEqual([
      'template.create',
      'template.publish',
      'template.update',
      'template.unpublish',
      'template.delete',
    ])
    expect(entries.every((entry) => entry.actor === admin.id)).toBe(true)
  })

  it('refuses steps and inputs that do not fit, naming the step, field or input', async () => {
    const undeclared = await call(admin, '/api/templates', {
      body: { ...SEARCH, steps: [...SEARCH.steps, { type: 'assertText', text: '{{price}}' }] },
    })
    expect(undeclared).toMatchObject({ status: 400, message: "Step 5 (assertText): {{price}} is not one of the template's inputs" })
    const badUrl = await call(admin, '/api/templates', {
      body: { ...SEARCH, inputs: [{ ...SEARCH.inputs[0], example: 'shop' }, ...SEARCH.inputs.slice(1)] },
    })
    expect(badUrl.status).toBe(400)
    expect(badUrl.message).toBe(
      'With the examples, Step 1 (navigate): url must be an http or https address: check “Shop address” (start_url)',
    )
    const unused = await call(admin, '/api/templates', {
      body: { ...SEARCH, inputs: [...SEARCH.inputs, { name: 'spare', label: 'Spare', example: 'x' }] },
    })
    expect(unused).toMatchObject({ status: 400, message: 'The input spare is not used by any step' })
    const twice = await call(admin, '/api/templates', { body: { ...SEARCH, inputs: [...SEARCH.inputs, SEARCH.inputs[0]] } })
    expect(twice).toMatchObject({ status: 400, message: 'inputs: Two inputs have the same name.' })
    // A change of the inputs alone is checked against the stored steps.
    const stored = await createTemplate({ name: 'Inputs change' })
    const dropped = await call(admin, `/api/templates/${stored.id}`, { method: 'PUT', body: { inputs: SEARCH.inputs.slice(0, 2) } })
    expect(dropped).toMatchObject({ status: 400, message: "Step 3 (type): {{note}} is not one of the template's inputs" })
  })

  it('is for admins: members are refused (403) before their body is read', async () => {
    expect((await call(member, '/api/templates', { body: {} })).status).toBe(403)
    expect((await call(member, '/api/templates?scope=all')).status).toBe(403)
    const template = await createTemplate({ name: 'Not yours', published: true })
    expect((await call(member, `/api/templates/${template.id}`, { method: 'PUT', body: { published: false } })).status).toBe(403)
    expect((await call(member, `/api/templates/${template.id}`, { method: 'DELETE' })).status).toBe(403)
  })
})

describe('members: browsing the gallery', () => {
  it('lists the published templates (the seeded ones too) by category, and filters by one', async () => {
    const all = await call<Template[]>(member, '/api/templates')
    expect(all.status).toBe(200)
    expect(all.data.length).toBeGreaterThanOrEqual(8)
    expect(all.data.every((row) => row.published)).toBe(true)
    const categories = all.data.map((row) => row.category)
    expect(categories).toEqual([...categories].sort())
    const scraping = await call<Template[]>(member, '/api/templates?category=scraping')
    expect(scraping.data.length).toBeGreaterThan(0)
    expect(scraping.data.every((row) => row.category === 'scraping')).toBe(true)
    expect((await call(member, '/api/templates?category=cooking')).status).toBe(400)
  })

  it('marks the advanced ones locked on a plan without them, naming the plan that unlocks them', async () => {
    const listed = await call<Template[]>(member, '/api/templates')
    const advanced = listed.data.filter((row) => row.advanced)
    expect(advanced.length).toBeGreaterThan(0)
    for (const row of advanced) {
      expect(row.locked).toBe('Advanced workflow templates is part of the Business plan; you are on the Free plan. Upgrade to use it.')
    }
    expect(listed.data.filter((row) => !row.advanced).every((row) => row.locked === null)).toBe(true)
  })
})

describe('members: using a template', () => {
  let template: Template
  beforeAll(async () => {
    template = await createTemplate({ name: 'Use me', published: true })
  })

  it('makes an automation in the current workspace with the values in the steps, and records it in the activity', async () => {
    const made = await use(member, template.id, { inputs: { ...VALUES, note: 'size 42' }, name: 'Boots search' })
    expect(made.status, JSON.stringify(made)).toBe(201)
    expect(made.data).toMatchObject({ name: 'Boots search', workspaceId: member.id, description: SEARCH.description })
    expect(made.data.steps).toEqual([
      { type: 'navigate', url: 'https://boots.example.org/' },
      { type: 'type', target: [{ by: 'role', role: 'searchbox', name: 'Search' }], text: 'walking boots' },
      { type: 'type', target: [{ by: 'label', text: 'Note' }], text: 'size 42' },
      { type: 'press', key: 'Enter' },
    ])
    // Without a name, the template's; an optional input left out takes its default.
    const unnamed = await use(member, template.id, { inputs: VALUES })
    expect(unnamed.data.name).toBe('Use me')
    expect(unnamed.data.steps[2]).toMatchObject({ text: 'none' })

    const activity = await call<{ summary: string; who: string }[]>(member, '/api/workspaces/current/activity')
    expect(JSON.stringify(activity.data)).toContain('Created Boots search from the template “Use me”')
    // The automation is the member's own, like any other: they change and delete it.
    expect((await call(member, `/api/automations/${made.data.id}`, { method: 'PUT', body: { name: 'Mine now' } })).status).toBe(200)
  })

  it('answers 400 naming the input that is missing, unknown, too long or makes a step invalid', async () => {
    const missing = await use(member, template.id, { inputs: { start_url: VALUES.start_url } })
    expect(missing).toMatchObject({ status: 400, message: 'Search for (search_term) is required.' })
    expect(missing.issues).toEqual([{ path: 'inputs.search_term', message: 'Search for (search_term) is required.' }])
    const blank = await use(member, template.id, { inputs: { ...VALUES, search_term: '   ' } })
    expect(blank.message).toBe('Search for (search_term) is required.')
    const unknown = await use(member, template.id, { inputs: { ...VALUES, price: '9' } })
    expect(unknown).toMatchObject({ status: 400, message: 'This template has no input named price.' })
    const huge = await use(member, template.id, { inputs: { ...VALUES, search_term: 'x'.repeat(501) } })
    expect(huge.status).toBe(400)
    expect(huge.issues?.[0]).toMatchObject({ path: 'inputs.search_term', message: 'Each input is at most 500 characters.' })
    const notText = await use(member, template.id, { inputs: { ...VALUES, search_term: { nested: true } } })
    expect(notText.status).toBe(400)
    const badUrl = await use(member, template.id, { inputs: { ...VALUES, start_url: 'javascript:alert(1)' } })
    expect(badUrl).toMatchObject({
      status: 400,
      message: 'Step 1 (navigate): url must be an http or https address: check “Shop address” (start_url)',
    })
    const [made] = await t.db.select({ n: count() }).from(automations).where(eq(automations.name, 'Use me'))
    expect(made?.n).toBe(1)
  })

  it('puts values in as text only: placeholders, quotes and JSON in a value stay those characters', async () => {
    const tricky = '{{start_url}}", "type": "navigate", "url": "https://evil.example/'
    const made = await use(member, template.id, { inputs: { ...VALUES, search_term: tricky, note: '{{note}}' } })
    expect(made.status).toBe(201)
    expect(made.data.steps).toHaveLength(4)
    expect(made.data.steps[1]).toEqual({ type: 'type', target: [{ by: 'role', role: 'searchbox', name: 'Search' }], text: tricky })
    expect(made.data.steps[2]).toMatchObject({ text: '{{note}}' })
    const prototype = await t.request(`/api/templates/${template.id}/use`, {
      token: member.token,
      body: `{"inputs": {"__proto__": {"search_term": "x"}, "start_url": "https://a.example/", "search_term": "y"}}`,
    })
    // The schema drops a __proto__ key; nothing of it reaches the steps or any object's prototype.
    expect(prototype.status).toBe(201)
    const { data } = (await prototype.json()) as { data: Automation }
    expect(data.steps[1]).toMatchObject({ text: 'y' })
    expect(({} as Record<string, unknown>).search_term).toBeUndefined()
  })

  it('an unknown or malformed template id is 404', async () => {
    expect((await use(member, crypto.randomUUID(), { inputs: VALUES })).status).toBe(404)
    expect((await use(member, 'not-a-template', { inputs: VALUES })).status).toBe(404)
  })
})

describe('plans decide which templates a workspace may use', () => {
  it('an advanced template is refused on Free and Pro with the plan that unlocks it, and works on Business', async () => {
    const advanced = await createTemplate({ name: 'Advanced one', advanced: true, published: true })
    const refused = await use(member, advanced.id, { inputs: VALUES })
    expect(refused).toMatchObject({
      status: 409,
      code: 'PLAN_LIMIT',
      message: 'Advanced workflow templates is part of the Business plan; you are on the Free plan. Upgrade to use it.',
    })
    const buyer = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, buyer.id))
    expect((await use(buyer, advanced.id, { inputs: VALUES })).message).toContain('you are on the Pro plan')
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, buyer.id))
    expect((await use(buyer, advanced.id, { inputs: VALUES })).status).toBe(201)
    expect((await call<Template>(buyer, `/api/templates/${advanced.id}`)).data.locked).toBeNull()
  })

  it('is stored with the plan: the admin gives Pro the advanced templates, and the refusal names the cheaper plan', async () => {
    const advanced = await createTemplate({ name: 'Advanced two', advanced: true, published: true })
    const pro = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, pro.id))
    const [plan] = await t.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.slug, 'pro'))
    await t.services.plans.update({ id: admin.id, email: admin.email }, plan?.id ?? '', { advancedTemplates: true })
    try {
      expect((await use(pro, advanced.id, { inputs: VALUES })).status).toBe(201)
      expect((await use(member, advanced.id, { inputs: VALUES })).message).toContain('part of the Pro plan; you are on the Free plan')
    } finally {
      await t.services.plans.update({ id: admin.id, email: admin.email }, plan?.id ?? '', { advancedTemplates: false })
    }
  })
})

describe('workspaces, roles and API keys', () => {
  let owner: Account
  let viewer: Account
  let team: string
  let template: Template
  beforeAll(async () => {
    template = await createTemplate({ name: 'Team template', published: true })
    owner = await t.signUp()
    viewer = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    const created = await call<{ id: string }>(owner, '/api/workspaces', { body: { name: 'Template team' } })
    team = created.data.id
    await t.db.insert(workspaceMembers).values({ workspaceId: team, userId: viewer.id, role: 'viewer' })
  })

  const countIn = async (workspaceId: string) =>
    (await t.db.select({ n: count() }).from(automations).where(eq(automations.workspaceId, workspaceId)))[0]?.n ?? 0

  it('makes the automation in the workspace the request names; the personal one is unaffected', async () => {
    const personalBefore = await countIn(owner.id)
    const made = await use(owner, template.id, { inputs: VALUES }, team)
    expect(made.status).toBe(201)
    expect(made.data.workspaceId).toBe(team)
    expect(await countIn(team)).toBe(1)
    expect(await countIn(owner.id)).toBe(personalBefore)
    // Another workspace's members do not see it.
    expect((await call(member, `/api/automations/${made.data.id}`)).status).toBe(404)
  })

  it('a viewer browses the gallery but cannot use a template (403), before the body is read', async () => {
    expect((await call<Template[]>(viewer, '/api/templates', { workspace: team })).status).toBe(200)
    expect((await call(viewer, `/api/templates/${template.id}`, { workspace: team })).status).toBe(200)
    const refused = await use(viewer, template.id, { inputs: 'not an object' }, team)
    expect(refused.status).toBe(403)
    const stillRefused = await t.services.templates
      .use(
        { id: viewer.id, email: viewer.email, emailVerified: true, role: 'user', workspace: { id: team, role: 'viewer' } },
        template.id,
        { inputs: VALUES },
      )
      .catch((error: unknown) => error)
    expect(stillRefused).toMatchObject({ status: 403 })
    expect(await countIn(team)).toBe(1)
  })

  it('the team plan decides for the team: Free there locks the advanced ones even for a Business owner', async () => {
    const advanced = await createTemplate({ name: 'Advanced for teams', advanced: true, published: true })
    expect((await use(owner, advanced.id, { inputs: VALUES }, team)).status).toBe(409)
    expect((await use(owner, advanced.id, { inputs: VALUES })).status).toBe(201)
  })

  it('an API key with the automations scope browses and uses templates in its own workspace', async () => {
    const key = await call<{ key: string }>(owner, '/api/keys', { body: { name: 'team key' }, workspace: team })
    expect(key.status).toBe(201)
    expect((await call<Template[]>(key.data.key, '/api/templates')).status).toBe(200)
    const made = await use(key.data.key, template.id, { inputs: VALUES })
    expect(made.status).toBe(201)
    expect(made.data.workspaceId).toBe(team)
    // A key cannot write templates, even an admin's without admin:content.
    const adminKey = await call<{ key: string }>(admin, '/api/keys', { body: { name: 'admin default key' } })
    expect((await call(adminKey.data.key, '/api/templates', { body: SEARCH })).status).toBe(403)
    const contentKey = await call<{ key: string }>(admin, '/api/keys', { body: { name: 'admin content key', scopes: ['admin:content'] } })
    expect((await call(contentKey.data.key, '/api/templates', { body: { ...SEARCH, name: 'By key' } })).status).toBe(201)
    const [row] = await t.db.select().from(automationTemplates).where(eq(automationTemplates.slug, 'by-key'))
    expect(row?.published).toBe(false)
  })
})
