import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// The authorisation matrix: every admin operation in the OpenAPI document answers 401 to a visitor,
// 403 to a member and 2xx to an admin. The sample table must name every admin operation, so a new
// admin route without an entry fails here until someone adds it (and so checks its guard).

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Operation = { tags?: string[]; summary?: string; security?: unknown[] }
type OpenApiDocument = { servers: { url: string }[]; paths: Record<string, Record<string, Operation>> }

interface Sample {
  /** The concrete path under /api. */
  path: string
  body?: unknown
  /** A multipart body (built anew for each call). */
  form?: () => FormData
  /** The admin's status (default 200). */
  status?: number
  /** The admin's answer is a stream: check the status, then cancel the body. */
  stream?: boolean
}

/** Operations a signed-in member may call (secured, but not admin-only). */
const MEMBER_OPERATIONS = [
  'POST /auth/logout',
  'POST /auth/view-as/end',
  'GET /auth/me',
  'PUT /auth/profile',
  'PUT /auth/change-password',
  'GET /keys',
  'POST /keys',
  'DELETE /keys/{id}',
  'POST /billing/portal',
  'GET /billing/invoices/{paymentId}',
  'POST /account/export',
  'GET /account/export',
  'GET /account/export/{id}/download',
  'POST /account/deletion',
  'GET /automations',
  'POST /automations',
  'GET /automations/{id}',
  'PUT /automations/{id}',
  'DELETE /automations/{id}',
  'POST /automations/{id}/duplicate',
  'POST /automations/{id}/runner-approval',
  'GET /automations/{id}/rows',
  'PUT /automations/{id}/rows',
  'DELETE /automations/{id}/rows',
  'GET /automations/{id}/files',
  'GET /automations/{id}/files/{name}',
  'PUT /automations/{id}/files/{name}',
  'DELETE /automations/{id}/files/{name}',
  'POST /automations/{id}/runs',
  'POST /automations/inspect',
  'POST /automations/plan',
  'GET /automations/{id}/suggestions',
  'POST /automations/{id}/suggestions/{suggestionId}/apply',
  'POST /runs/{id}/repairs/{step}/apply',
  'GET /runs',
  'GET /runs/events',
  'GET /runs/{id}',
  'POST /runs/{id}/progress',
  'POST /runs/{id}/finish',
  'POST /runs/{id}/cancel',
  'POST /runs/{id}/continue',
  'POST /runs/{id}/live/input',
  'POST /runs/{id}/resume',
  'POST /runs/{id}/rerun',
  'GET /runs/{id}/rows.csv',
  'GET /runs/{id}/files/{file}',
  'GET /runs/{id}/live',
  'GET /runs/{id}/extracted.csv',
  'GET /runs/{id}/extracted.json',
  'GET /runs/{id}/screenshots/{file}',
  'GET /runs/{id}/trace',
  'GET /workspaces',
  'POST /workspaces',
  'GET /workspaces/current',
  'PATCH /workspaces/current',
  'DELETE /workspaces/current',
  'GET /workspaces/current/members',
  'PATCH /workspaces/current/members/{userId}',
  'DELETE /workspaces/current/members/{userId}',
  'POST /workspaces/current/leave',
  'POST /workspaces/current/transfer',
  'GET /workspaces/current/invitations',
  'POST /workspaces/current/invitations',
  'DELETE /workspaces/current/invitations/{id}',
  'GET /workspaces/current/activity',
  'POST /workspaces/invitations/accept',
  'GET /auth/two-factor',
  'POST /auth/two-factor/setup',
  'POST /auth/two-factor/confirm',
  'POST /auth/two-factor/disable',
  'POST /auth/two-factor/recovery-codes',
  'GET /auth/passkeys',
  'POST /auth/passkeys/options',
  'POST /auth/passkeys',
  'DELETE /auth/passkeys/{id}',
  'GET /templates',
  'GET /templates/{id}',
  'POST /templates/{id}/use',
  'GET /automations/{id}/trigger',
  'POST /automations/{id}/trigger',
  'DELETE /automations/{id}/trigger',
  'GET /webhooks',
  'POST /webhooks',
  'PATCH /webhooks/{id}',
  'DELETE /webhooks/{id}',
  'POST /webhooks/{id}/rotate-secret',
  'GET /webhooks/{id}/deliveries',
  'POST /webhooks/{id}/deliveries/{deliveryId}/redeliver',
  'POST /webhooks/{id}/test',
  'POST /hooks',
  'DELETE /hooks/{id}',
  'GET /hooks/samples/{event}',
  'GET /vault',
  'POST /vault',
  'PUT /vault/{id}',
  'PATCH /vault/{id}',
  'DELETE /vault/{id}',
  'DELETE /automations/{id}/session',
  'GET /devices/me',
  'DELETE /devices/me',
  'POST /runs/claim',
  'GET /devices',
  'PATCH /devices/{id}',
  'DELETE /devices/{id}',
  'POST /runs/{id}/screenshots',
  'POST /runs/{id}/vault',
]

const TEMPLATE = {
  category: 'monitoring',
  inputs: [{ name: 'start_url', label: 'Page', example: 'https://example.com/' }],
  steps: [{ type: 'navigate', url: '{{start_url}}' }, { type: 'screenshot' }],
}

let t: TestApp
let admin: Account
let member: Account
let fixtures: {
  editUser: Account
  deleteUser: Account
  passwordUser: Account
  unverifiedUser: Account
  suspendUser: Account
  suspendedUser: Account
  viewAsUser: Account
  editPost: string
  deletePost: string
  editInquiry: string
  deleteInquiry: string
  editTemplate: string
  deleteTemplate: string
  editPlan: string
  deletePlan: string
}

async function createPost(title: string): Promise<string> {
  const response = await t.request('/api/blog', { token: admin.token, body: { title } })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

async function createTemplate(name: string): Promise<string> {
  const response = await t.request('/api/templates', { token: admin.token, body: { ...TEMPLATE, name } })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

async function createPlan(name: string): Promise<string> {
  const response = await t.request('/api/plans', { token: admin.token, body: { name, price: 7 } })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

async function createInquiry(name: string): Promise<string> {
  const body = { name, email: 'client@example.com', projectType: 'data-scraping', message: 'Collect prices from three shops.' }
  const response = await t.request('/api/contact', { body, ip: t.freshIp() })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { id: string } }).data.id
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
  member = await t.signUp()
  fixtures = {
    editUser: await t.signUp(),
    deleteUser: await t.signUp(),
    passwordUser: await t.signUp(),
    unverifiedUser: await t.signUp({ verified: false }),
    suspendUser: await t.signUp(),
    suspendedUser: await t.signUp(),
    viewAsUser: await t.signUp(),
    editPost: await createPost('Post to edit'),
    deletePost: await createPost('Post to delete'),
    editInquiry: await createInquiry('Inquiry to mark'),
    deleteInquiry: await createInquiry('Inquiry to delete'),
    editTemplate: await createTemplate('Template to edit'),
    deleteTemplate: await createTemplate('Template to delete'),
    editPlan: await createPlan('Plan to edit'),
    deletePlan: await createPlan('Plan to delete'),
  }
  await t.services.userSuspensions.suspend({ id: admin.id, email: admin.email }, fixtures.suspendedUser.id, 'To be restored')
})
afterAll(async () => {
  await t.close()
})

function pngForm(): FormData {
  const form = new FormData()
  const bytes = new Uint8Array(64)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'cover.png')
  return form
}

/** One valid request per admin operation, keyed as in the document: "METHOD /path/{id}" (relative to /api). */
const samples: Record<string, () => Sample> = {
  'GET /users': () => ({ path: '/users?page=1&limit=5' }),
  'POST /users': () => ({
    path: '/users',
    body: { email: 'made-by-admin@example.com', password: 'a-good-password', role: 'user' },
    status: 201,
  }),
  'GET /users/{id}': () => ({ path: `/users/${fixtures.editUser.id}` }),
  'PUT /users/{id}': () => ({ path: `/users/${fixtures.editUser.id}`, body: { credits: 12, plan: 'pro' } }),
  'DELETE /users/{id}': () => ({ path: `/users/${fixtures.deleteUser.id}` }),
  'POST /users/{id}/reset-password': () => ({
    path: `/users/${fixtures.passwordUser.id}/reset-password`,
    body: { newPassword: 'brand-new-password' },
  }),
  'POST /users/{id}/reset-two-factor': () => ({ path: `/users/${fixtures.editUser.id}/reset-two-factor` }),
  'POST /users/{id}/sign-out': () => ({ path: `/users/${fixtures.passwordUser.id}/sign-out` }),
  'POST /users/{id}/verification-email': () => ({ path: `/users/${fixtures.unverifiedUser.id}/verification-email` }),
  'POST /users/{id}/suspend': () => ({ path: `/users/${fixtures.suspendUser.id}/suspend`, body: { reason: 'Matrix check' } }),
  'POST /users/{id}/unsuspend': () => ({ path: `/users/${fixtures.suspendedUser.id}/unsuspend` }),
  'GET /users/{id}/timeline': () => ({ path: `/users/${fixtures.editUser.id}/timeline` }),
  'POST /users/{id}/view-as': () => ({ path: `/users/${fixtures.viewAsUser.id}/view-as`, body: { reason: 'Matrix check' } }),
  'GET /plans/all': () => ({ path: '/plans/all' }),
  'POST /plans': () => ({ path: '/plans', body: { name: 'Matrix plan', sortOrder: 5 }, status: 201 }),
  'PATCH /plans/{id}': () => ({ path: `/plans/${fixtures.editPlan}`, body: { sortOrder: 4 } }),
  'DELETE /plans/{id}': () => ({ path: `/plans/${fixtures.deletePlan}` }),
  'POST /templates': () => ({ path: '/templates', body: { ...TEMPLATE, name: 'Matrix template' }, status: 201 }),
  'PUT /templates/{id}': () => ({ path: `/templates/${fixtures.editTemplate}`, body: { description: 'Changed by the matrix' } }),
  'DELETE /templates/{id}': () => ({ path: `/templates/${fixtures.deleteTemplate}` }),
  'GET /contact': () => ({ path: '/contact?processed=false' }),
  'PUT /contact/{id}': () => ({ path: `/contact/${fixtures.editInquiry}`, body: { processed: true } }),
  'DELETE /contact/{id}': () => ({ path: `/contact/${fixtures.deleteInquiry}` }),
  'POST /blog': () => ({ path: '/blog', body: { title: 'Matrix post', tags: 'a, b' }, status: 201 }),
  'PUT /blog/{id}': () => ({ path: `/blog/${fixtures.editPost}`, body: { status: 'published' } }),
  'DELETE /blog/{id}': () => ({ path: `/blog/${fixtures.deletePost}` }),
  'POST /uploads/covers': () => ({ path: '/uploads/covers', form: pngForm, status: 201 }),
  'GET /mail/outbox': () => ({ path: '/mail/outbox' }),
  'POST /ai/generate-blog': () => ({ path: '/ai/generate-blog', body: { title: 'Matrix draft', length: 'short' }, stream: true }),
  'GET /settings': () => ({ path: '/settings' }),
  'PUT /settings': () => ({
    path: '/settings',
    body: {
      siteName: 'Aether',
      description: 'Matrix',
      defaultCredits: 5,
      maintenanceMode: false,
      theme: 'dark',
      apiRateLimit: 1000,
    },
  }),
  'GET /audit': () => ({ path: '/audit?targetType=user' }),
  'GET /overview': () => ({ path: '/overview' }),
  'GET /events/inquiries': () => ({ path: '/events/inquiries', stream: true }),
}

/** Admin-only: a tag like "Users (admin)", or (for routes grouped with public ones) a summary ending in "(admin)". */
function isAdminOperation(operation: Operation): boolean {
  return Boolean(operation.tags?.some((tag) => tag.endsWith('(admin)')) || operation.summary?.trimEnd().endsWith('(admin)'))
}

async function operations(): Promise<{ key: string; operation: Operation }[]> {
  const response = await t.request('/api/openapi.json')
  expect(response.status).toBe(200)
  const document = (await response.json()) as OpenApiDocument
  expect(document.servers).toEqual([{ url: '/api' }])
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  )
}

function call(key: string, token?: string): Promise<Response> {
  const method = key.split(' ')[0] ?? 'GET'
  const sample = samples[key]?.()
  if (!sample) throw new Error(`no sample request for ${key}`)
  if (sample.form) {
    const headers = new Headers({ 'x-forwarded-for': '203.0.113.10' })
    if (token) headers.set('authorization', `Bearer ${token}`)
    return Promise.resolve(t.app.request(`/api${sample.path}`, { method, body: sample.form(), headers }))
  }
  return t.request(`/api${sample.path}`, { method, body: sample.body, token })
}

describe('the sample table', () => {
  it('covers exactly the admin operations of the OpenAPI document', async () => {
    const all = await operations()
    const adminKeys = all.filter(({ operation }) => isAdminOperation(operation)).map(({ key }) => key)
    expect(adminKeys.toSorted()).toEqual(Object.keys(samples).toSorted())
    // The AI and inquiry routes' tags do not say admin, but their summaries do.
    expect(adminKeys).toContain('POST /ai/generate-blog')
    expect(adminKeys).toContain('GET /contact')
    expect(adminKeys).toContain('GET /mail/outbox')
  })

  it('every other secured operation is one a member may call', async () => {
    const secured = (await operations()).filter(({ operation }) => operation.security?.length && !isAdminOperation(operation))
    expect(secured.map(({ key }) => key).toSorted()).toEqual(MEMBER_OPERATIONS.toSorted())
  })
})

describe.each(Object.keys(samples))('%s', (key) => {
  it('answers 401 to a visitor, 403 to a member and 2xx to an admin', async () => {
    const visitor = await call(key)
    expect(visitor.status, await visitor.clone().text()).toBe(401)
    expect(((await visitor.json()) as { code: string }).code).toBe('UNAUTHORIZED')

    const asMember = await call(key, member.token)
    expect(asMember.status, await asMember.clone().text()).toBe(403)
    expect(((await asMember.json()) as { code: string }).code).toBe('FORBIDDEN')

    const asAdmin = await call(key, admin.token)
    const sample = samples[key]?.()
    if (sample?.stream) {
      expect(asAdmin.status).toBe(200)
      await asAdmin.body?.cancel()
    } else {
      expect(asAdmin.status, await asAdmin.text()).toBe(sample?.status ?? 200)
    }
  })
})
