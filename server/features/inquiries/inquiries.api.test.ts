import { asc, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, mailOutbox, serviceInquiries } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { HONEYPOT_FIELD, INQUIRY_LIMITS } from '#common/inquiry-fields.ts'

let t: TestApp
let admin: Awaited<ReturnType<TestApp['signUp']>>
let member: Awaited<ReturnType<TestApp['signUp']>>

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
  member = await t.signUp()
})
afterAll(async () => {
  await t.close()
})

type ErrorBody = { message: string; code?: string; issues?: { path: string; message: string }[] }
type InquiryDto = {
  id: string
  name: string
  email: string
  projectType: string
  project_type: string
  message: string
  processed: boolean
}

const valid = (overrides: Record<string, unknown> = {}) => ({
  name: 'Jane Client',
  email: 'jane@example.com',
  projectType: 'process-automation',
  message: 'Please automate our weekly invoice export.',
  ...overrides,
})

async function expectFieldError(response: Response, field: string, text?: string) {
  expect(response.status).toBe(400)
  const body = (await response.json()) as ErrorBody
  expect(body.message.startsWith(`${field}: `), body.message).toBe(true)
  if (text) expect(body.message).toContain(text)
  expect(body.issues?.some((issue) => issue.path === field)).toBe(true)
}

async function storedCount() {
  const [row] = await t.db.select({ n: count() }).from(serviceInquiries)
  return row?.n ?? 0
}

describe('POST /api/contact', () => {
  it('stores the inquiry unprocessed and notifies the owner (201)', async () => {
    const ip = t.freshIp()
    const response = await t.request('/api/contact', { body: valid({ name: 'Outbox Check' }), ip })
    expect(response.status).toBe(201)
    const { data } = (await response.json()) as { data: InquiryDto }
    expect(data).toMatchObject({
      name: 'Outbox Check',
      email: 'jane@example.com',
      projectType: 'process-automation',
      project_type: 'process-automation',
      processed: false,
    })

    const [stored] = await t.db.select().from(serviceInquiries).where(eq(serviceInquiries.id, data.id))
    expect(stored).toMatchObject({ name: 'Outbox Check', processed: false, projectType: 'process-automation' })

    const mails = await t.db.select().from(mailOutbox)
    const notice = mails.find((mail) => mail.text.includes('Name: Outbox Check'))
    expect(notice?.to).toBe('hello@aether.test')
    expect(notice?.subject).toContain('Process Automation')
    expect(notice?.text).toContain('Please automate our weekly invoice export.')
  })

  it('defaults the project type to data-scraping', async () => {
    const body = valid()
    delete (body as Partial<typeof body>).projectType
    const response = await t.request('/api/contact', { body, ip: t.freshIp() })
    expect(response.status).toBe(201)
    expect(((await response.json()) as { data: InquiryDto }).data.projectType).toBe('data-scraping')
  })

  it('answers 400 naming the field, and stores nothing', async () => {
    const before = await storedCount()
    const post = (body: unknown) => t.request('/api/contact', { body, ip: t.freshIp() })
    await expectFieldError(await post(valid({ name: undefined })), 'name', 'Name is required')
    await expectFieldError(await post(valid({ name: '   ' })), 'name', 'Name is required')
    await expectFieldError(await post(valid({ email: undefined })), 'email', 'Email is required')
    await expectFieldError(await post(valid({ email: 'not-an-email' })), 'email', 'Please enter a valid email address.')
    await expectFieldError(await post(valid({ message: undefined })), 'message', 'Project details are required')
    await expectFieldError(
      await post(valid({ message: 'x'.repeat(INQUIRY_LIMITS.message + 1) })),
      'message',
      `at most ${INQUIRY_LIMITS.message}`,
    )
    await expectFieldError(await post(valid({ name: 'n'.repeat(INQUIRY_LIMITS.name + 1) })), 'name', `at most ${INQUIRY_LIMITS.name}`)
    await expectFieldError(await post(valid({ projectType: 'world-domination' })), 'projectType')
    expect(await storedCount()).toBe(before)
  })

  it('refuses a filled honeypot and stores nothing', async () => {
    const before = await storedCount()
    const response = await t.request('/api/contact', { body: valid({ [HONEYPOT_FIELD]: 'https://spam.example' }), ip: t.freshIp() })
    expect(response.status).toBe(400)
    expect(((await response.json()) as ErrorBody).message).toBe("Your inquiry couldn't be sent. Please try again later.")
    expect(await storedCount()).toBe(before)
  })

  it('limits one address to 5 inquiries in 10 minutes (429 with Retry-After); another address still passes', async () => {
    const ip = '192.0.2.77'
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await t.request('/api/contact', { body: valid({ name: `Burst ${attempt}` }), ip })
      expect(response.status, `attempt ${attempt}`).toBe(201)
    }
    const before = await storedCount()
    const sixth = await t.request('/api/contact', { body: valid({ name: 'Burst 6' }), ip })
    expect(sixth.status).toBe(429)
    const retryAfter = Number(sixth.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(600)
    // The headers describe the inquiry limit that refused, not the general API limit.
    expect(sixth.headers.get('RateLimit-Policy')).toBe('5;w=600')
    expect(sixth.headers.get('RateLimit-Limit')).toBe('5')
    expect(sixth.headers.get('RateLimit-Remaining')).toBe('0')
    expect(sixth.headers.get('RateLimit-Reset')).toBe(String(retryAfter))
    expect(sixth.headers.get('X-RateLimit-Limit')).toBe('5')
    expect(sixth.headers.get('X-RateLimit-Remaining')).toBe('0')
    expect(((await sixth.json()) as ErrorBody).message).toBe(
      'You have sent several messages in a short time. Please wait 10 minutes before sending another.',
    )
    expect(await storedCount()).toBe(before)

    const other = await t.request('/api/contact', { body: valid({ name: 'Someone else' }), ip: '192.0.2.78' })
    expect(other.status).toBe(201)
  })
})

describe('admin /api/contact', () => {
  let ids: string[] = []

  beforeAll(async () => {
    // A known set: two more inquiries, one of them processed.
    const created: string[] = []
    for (const name of ['Admin List A', 'Admin List B']) {
      const response = await t.request('/api/contact', { body: valid({ name }), ip: t.freshIp() })
      created.push(((await response.json()) as { data: InquiryDto }).data.id)
    }
    ids = created
    await t.request(`/api/contact/${ids[0]}`, { method: 'PUT', body: { processed: true }, token: admin.token })
  })

  it('401 for a visitor and 403 for a member on every admin route', async () => {
    const id = ids[1]
    const routes: { path: string; method: string; body?: unknown }[] = [
      { path: '/api/contact', method: 'GET' },
      { path: `/api/contact/${id}`, method: 'PUT', body: { processed: true } },
      { path: `/api/contact/${id}`, method: 'DELETE' },
    ]
    for (const route of routes) {
      const visitor = await t.request(route.path, { method: route.method, body: route.body })
      expect(visitor.status, `${route.method} ${route.path} as visitor`).toBe(401)
      const asMember = await t.request(route.path, { method: route.method, body: route.body, token: member.token })
      expect(asMember.status, `${route.method} ${route.path} as member`).toBe(403)
    }
    const [row] = await t.db.select().from(serviceInquiries).where(eq(serviceInquiries.id, id!))
    expect(row?.processed).toBe(false)
  })

  it('lists newest first with page, limit and total', async () => {
    const total = await storedCount()
    const first = await t.request('/api/contact?page=1&limit=2', { token: admin.token })
    expect(first.status).toBe(200)
    const body = (await first.json()) as { data: InquiryDto[]; total: number; page: number; limit: number }
    expect(body).toMatchObject({ total, page: 1, limit: 2 })
    expect(body.data).toHaveLength(2)
    expect(body.data[0]?.name).toBe('Admin List B')

    const last = (await (await t.request(`/api/contact?page=${Math.ceil(total / 2)}&limit=2`, { token: admin.token })).json()) as {
      data: InquiryDto[]
    }
    expect(last.data.length).toBeGreaterThan(0)
    expect((await t.request('/api/contact?limit=0', { token: admin.token })).status).toBe(400)
  })

  it('filters by processed', async () => {
    const processed = (await (await t.request('/api/contact?processed=true&limit=100', { token: admin.token })).json()) as {
      data: InquiryDto[]
      total: number
    }
    expect(processed.data.every((row) => row.processed)).toBe(true)
    expect(processed.data.map((row) => row.id)).toContain(ids[0])
    const pending = (await (await t.request('/api/contact?processed=false&limit=100', { token: admin.token })).json()) as {
      data: InquiryDto[]
      total: number
    }
    expect(pending.data.every((row) => !row.processed)).toBe(true)
    expect(pending.data.map((row) => row.id)).toContain(ids[1])
    expect(processed.total + pending.total).toBe(await storedCount())
    expect((await t.request('/api/contact?processed=maybe', { token: admin.token })).status).toBe(400)
  })

  it('PUT toggles processed both ways', async () => {
    const id = ids[1]
    const on = await t.request(`/api/contact/${id}`, { method: 'PUT', body: { processed: true }, token: admin.token })
    expect(on.status).toBe(200)
    expect(((await on.json()) as { data: InquiryDto }).data.processed).toBe(true)
    const off = await t.request(`/api/contact/${id}`, { method: 'PUT', body: { processed: false }, token: admin.token })
    expect(((await off.json()) as { data: InquiryDto }).data.processed).toBe(false)
    const [row] = await t.db.select().from(serviceInquiries).where(eq(serviceInquiries.id, id!))
    expect(row?.processed).toBe(false)
    await expectFieldError(
      await t.request(`/api/contact/${id}`, { method: 'PUT', body: { processed: 'yes' }, token: admin.token }),
      'processed',
    )
  })

  it('audits the processed value the row had before, not the opposite of the new one', async () => {
    const created = await t.request('/api/contact', { body: valid({ name: 'Audit Before' }), ip: t.freshIp() })
    const { id } = ((await created.json()) as { data: InquiryDto }).data
    const put = (processed: boolean) => t.request(`/api/contact/${id}`, { method: 'PUT', body: { processed }, token: admin.token })
    // The second save repeats the first (two admins ticking the same box): nothing was unprocessed before it.
    expect((await put(true)).status).toBe(200)
    expect((await put(true)).status).toBe(200)
    expect((await put(false)).status).toBe(200)
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.targetId, id)).orderBy(asc(auditLog.createdAt), asc(auditLog.id))
    expect(entries.map((entry) => [entry.before, entry.after])).toEqual([
      [{ processed: false }, { processed: true }],
      [{ processed: true }, { processed: true }],
      [{ processed: true }, { processed: false }],
    ])
  })

  it('DELETE removes the inquiry; a second DELETE is 404', async () => {
    const id = ids[0]
    const removed = await t.request(`/api/contact/${id}`, { method: 'DELETE', token: admin.token })
    expect(removed.status).toBe(200)
    expect(await removed.json()).toEqual({ data: { success: true } })
    expect(await t.db.select().from(serviceInquiries).where(eq(serviceInquiries.id, id!))).toHaveLength(0)
    expect((await t.request(`/api/contact/${id}`, { method: 'DELETE', token: admin.token })).status).toBe(404)
  })

  it('404 for an unknown id, 400 for an id that is not a UUID', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    const put = await t.request(`/api/contact/${unknown}`, { method: 'PUT', body: { processed: true }, token: admin.token })
    expect(put.status).toBe(404)
    expect(((await put.json()) as ErrorBody).message).toBe('Inquiry not found')
    expect((await t.request(`/api/contact/${unknown}`, { method: 'DELETE', token: admin.token })).status).toBe(404)
    await expectFieldError(
      await t.request('/api/contact/not-a-uuid', { method: 'PUT', body: { processed: true }, token: admin.token }),
      'id',
    )
    await expectFieldError(await t.request('/api/contact/not-a-uuid', { method: 'DELETE', token: admin.token }), 'id')
  })
})
