import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { action as adminAction, loader as adminLoader } from './admin-templates.tsx'
import { action as planAction } from './admin-plan.tsx'
import { action, loader } from './templates.tsx'

// The gallery's and the Templates tab's page actions, with the real services (docs/decisions/022).

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer = { ok: boolean; field?: string; templateId?: string; error?: { description?: string }; toast?: { title: string } }

let t: TestApp
let admin: Account
let member: Account

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
  member = await t.signUp()
})
afterAll(async () => {
  await t.close()
})

const contextOf = (account: Account, workspace?: string) => t.pageContext(account, workspace)

const form = (fields: Record<string, string>) => new URLSearchParams(fields)
const post = (path: string, fields: Record<string, string>) =>
  new Request(`http://localhost:3000${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form(fields),
  })

type Args = Parameters<typeof action>[0]
async function useAs(account: Account, fields: Record<string, string>, workspace?: string) {
  const args = { request: post('/dashboard/templates', fields), params: {}, context: await contextOf(account, workspace) }
  return (await action(args as unknown as Args)) as unknown as Response | { data: Answer; init: { status: number } | null }
}
async function adminPost(fields: Record<string, string>) {
  const args = { request: post('/admin/templates', fields), params: {}, context: await contextOf(admin) }
  return (await adminAction(args as unknown as Parameters<typeof adminAction>[0])) as unknown as {
    data: Answer
    init: { status: number } | null
  }
}
async function galleryOf(account: Account, query = '', workspace?: string) {
  const args = {
    request: new Request(`http://localhost:3000/dashboard/templates${query}`),
    params: {},
    context: await contextOf(account, workspace),
  }
  return loader(args as unknown as Parameters<typeof loader>[0])
}

const SEND = (id: string) => ({
  intent: 'use-template',
  templateId: id,
  'input.start_url': 'https://www.example.org/contact',
  'input.full_name': 'Ada Lovelace',
  'input.email': 'ada@example.org',
  'input.topic': 'Returns',
  'input.message': 'Hello',
})

describe('the Templates tab', () => {
  it('creates a template from the dialog’s JSON, publishes, unpublishes and deletes it', async () => {
    const created = await adminPost({
      intent: 'create-template',
      name: 'Tab template',
      category: 'monitoring',
      description: '',
      inputs: JSON.stringify([{ name: 'start_url', label: 'Page', example: 'https://example.com/' }]),
      steps: JSON.stringify([{ type: 'navigate', url: '{{start_url}}' }]),
    })
    expect(created.data).toMatchObject({ ok: true, toast: { title: 'Template created' } })
    const listed = await adminLoader({ context: await contextOf(admin) } as unknown as Parameters<typeof adminLoader>[0])
    const row = listed.templates.find((template) => template.name === 'Tab template')
    expect(row).toMatchObject({ published: false, advanced: false, category: 'Monitoring', stepCount: 1, inputCount: 1 })
    const id = row?.id ?? ''
    expect((await adminPost({ intent: 'set-published', templateId: id, published: 'true' })).data.toast?.title).toBe('Template published')
    expect((await adminPost({ intent: 'set-published', templateId: id, published: 'false' })).data.toast?.title).toBe(
      'Template unpublished',
    )
    expect((await adminPost({ intent: 'delete-template', templateId: id })).data.toast?.title).toBe('Template deleted')
    expect((await adminPost({ intent: 'delete-template', templateId: id })).init?.status).toBe(404)
  })

  it('names the field of JSON that does not parse, and of steps that do not fit', async () => {
    const broken = await adminPost({ intent: 'create-template', name: 'Broken', category: 'scraping', steps: '[{', inputs: '[]' })
    expect(broken.init?.status).toBe(400)
    expect(broken.data).toMatchObject({ ok: false, field: 'steps', error: { description: 'Steps must be JSON: a list, as [ … ].' } })
    const unfit = await adminPost({
      intent: 'create-template',
      name: 'Unfit',
      category: 'scraping',
      steps: JSON.stringify([{ type: 'navigate', url: '{{start_url}}' }]),
      inputs: '[]',
    })
    expect(unfit.data).toMatchObject({ ok: false, field: 'steps.0.url' })
  })

  it('refuses a member (403)', async () => {
    const args = { request: post('/admin/templates', { intent: 'delete-template' }), params: {}, context: await contextOf(member) }
    await expect(adminAction(args as unknown as Parameters<typeof adminAction>[0])).rejects.toMatchObject({ init: { status: 403 } })
  })
})

describe('the gallery page', () => {
  it('lists the published templates of a category, the advanced ones locked with the plan that unlocks them', async () => {
    const gallery = await galleryOf(member, '?category=monitoring')
    expect(gallery.category).toBe('monitoring')
    expect(gallery.canUse).toBe(true)
    expect(gallery.templates.length).toBeGreaterThan(0)
    expect(gallery.templates.every((template) => template.category === 'Monitoring')).toBe(true)
    const advanced = gallery.templates.find((template) => template.advanced)
    expect(advanced?.locked).toContain('part of the Business plan')
    // An unknown category is all of them.
    expect((await galleryOf(member, '?category=nope')).category).toBeNull()
  })

  it('Use template: the builder of the new automation, with a flash; a missing input names its field', async () => {
    const gallery = await galleryOf(member, '?category=form-submission')
    const send = gallery.templates.find((template) => template.name === 'Send a contact form')
    const made = (await useAs(member, { ...SEND(send?.id ?? ''), name: 'My contact form' })) as Response
    expect(made.status, JSON.stringify(made)).toBe(302)
    const id = /\/dashboard\/automations\/([0-9a-f-]{36})$/.exec(made.headers.get('Location') ?? '')?.[1] ?? ''
    const automation = await t.services.automations.get(id, {
      id: member.id,
      email: member.email,
      emailVerified: true,
      role: 'user',
      workspace: { id: member.id, role: 'owner' },
    })
    expect(automation).toMatchObject({ name: 'My contact form', workspaceId: member.id })
    expect(automation.steps[0]).toEqual({ type: 'navigate', url: 'https://www.example.org/contact' })

    const { ['input.email']: _email, ...withoutEmail } = SEND(send?.id ?? '')
    const missing = (await useAs(member, withoutEmail)) as { data: Answer; init: { status: number } }
    expect(missing.init.status).toBe(400)
    expect(missing.data).toMatchObject({
      ok: false,
      templateId: send?.id,
      field: 'inputs.email',
      error: { description: 'Your e-mail address (email) is required.' },
    })
  })

  it('a viewer browses, and is refused Use template', async () => {
    const owner = await t.signUp()
    const viewer = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    const team = await t.services.workspaces.createTeam({ id: owner.id, email: owner.email }, 'Gallery team')
    await t.db.insert(workspaceMembers).values({ workspaceId: team.id, userId: viewer.id, role: 'viewer' })
    const gallery = await galleryOf(viewer, '?category=form-submission', team.id)
    expect(gallery.canUse).toBe(false)
    const send = gallery.templates.find((template) => template.name === 'Send a contact form')
    const refused = (await useAs(viewer, SEND(send?.id ?? ''), team.id)) as { data: Answer; init: { status: number } }
    expect(refused.init.status).toBe(403)
    expect(refused.data.error?.description).toContain('needs the Member role in this workspace')
  })
})

describe('a plan’s form on the Subscriptions tab', () => {
  it('switches a plan’s advanced templates, and the gallery follows', async () => {
    const pro = (await t.services.plans.list()).find((plan) => plan.slug === 'pro')
    const customer = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, customer.id))
    // The plan's form as the admin saves it: every field as shown, the box ticked or not.
    const toggle = async (value: boolean) => {
      const { id, slug: _slug, createdAt: _c, updatedAt: _u, ...plan } = pro!
      const fields = Object.fromEntries(
        Object.entries({ ...plan, advancedTemplates: value }).flatMap(([name, stored]): [string, string][] => {
          if (typeof stored === 'boolean') return stored ? [[name, 'on']] : []
          return [[name, Array.isArray(stored) ? stored.join('\n') : String(stored ?? '')]]
        }),
      )
      const args = {
        request: post(`/admin/subscriptions/${id}`, { intent: 'save-plan', ...fields }),
        params: { planId: id },
        context: await contextOf(admin),
      }
      const answer = (await planAction(args as unknown as Parameters<typeof planAction>[0])) as unknown as { data: Answer }
      expect(answer.data).toMatchObject({ ok: true, toast: { title: 'Plan updated' } })
    }
    const lockedFor = async () => (await galleryOf(customer, '?category=scraping')).templates.find((template) => template.advanced)?.locked
    expect(await lockedFor()).toContain('part of the Business plan; you are on the Pro plan')
    await toggle(true)
    try {
      expect(await lockedFor()).toBeNull()
    } finally {
      await toggle(false)
    }
    expect(await lockedFor()).toContain('part of the Business plan')
    // Saved twice as shown, the rest of the plan is as it was.
    const { updatedAt: _before, ...was } = pro!
    const { updatedAt: _after, ...now } = (await t.services.plans.list()).find((plan) => plan.slug === 'pro')!
    expect(now).toEqual(was)
  })
})
