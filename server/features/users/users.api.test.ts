import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

let t: TestApp
let admin: Awaited<ReturnType<TestApp['signUp']>>
let member: Awaited<ReturnType<TestApp['signUp']>>

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ email: 'boss@example.com', fullName: 'Boss Person', role: 'admin' })
  member = await t.signUp({ email: 'member@example.com', fullName: 'Mia Member' })
  for (let i = 0; i < 11; i++) await t.signUp({ email: `bulk-${String(i).padStart(2, '0')}@example.com` })
})
afterAll(async () => {
  await t.close()
})

type ListBody = {
  data: { id: string; email: string; last_sign_in_at: string | null; profile: { role: string } }[]
  users: unknown[]
  total: number
  page: number
  limit: number
}

describe('GET /api/users', () => {
  it('is refused to visitors (401) and members (403)', async () => {
    expect((await t.request('/api/users')).status).toBe(401)
    expect((await t.request('/api/users', { token: member.token })).status).toBe(403)
  })

  it('pages with page and limit (default 10), newest first, and carries total', async () => {
    const first = (await (await t.request('/api/users', { token: admin.token })).json()) as ListBody
    expect(first.total).toBe(13)
    expect(first.limit).toBe(10)
    expect(first.page).toBe(1)
    expect(first.data).toHaveLength(10)
    expect(first.users).toHaveLength(10)
    expect(first.data[0]?.email).toBe('bulk-10@example.com')
    const last = (await (await t.request('/api/users?page=2', { token: admin.token })).json()) as ListBody
    expect(last.data).toHaveLength(3)
    expect(last.data.map((user) => user.email)).toContain('boss@example.com')
    const ids = new Set([...first.data, ...last.data].map((user) => user.id))
    expect(ids.size).toBe(13)
  })

  it('caps limit, filters by role and searches by e-mail or name', async () => {
    const capped = (await (await t.request('/api/users?limit=100000', { token: admin.token })).json()) as ListBody
    expect(capped.limit).toBe(100)
    const admins = (await (await t.request('/api/users?role=admin', { token: admin.token })).json()) as ListBody
    expect(admins.total).toBe(1)
    expect(admins.data[0]?.profile.role).toBe('admin')
    const byName = (await (await t.request('/api/users?search=mia', { token: admin.token })).json()) as ListBody
    expect(byName.data.map((user) => user.email)).toEqual(['member@example.com'])
    const wildcard = (await (await t.request('/api/users?search=%25', { token: admin.token })).json()) as ListBody
    expect(wildcard.total).toBe(0)
    expect(byName.data[0]?.last_sign_in_at).toEqual(expect.any(String))
  })

  it('refuses bad paging with 400 naming the parameter', async () => {
    const response = await t.request('/api/users?page=0', { token: admin.token })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(/^page: /)
    expect((await t.request('/api/users?role=owner', { token: admin.token })).status).toBe(400)
  })
})

describe('GET /api/users/:id', () => {
  it('returns one user to an admin and 404 for an unknown id', async () => {
    const found = await t.request(`/api/users/${member.id}`, { token: admin.token })
    expect(found.status).toBe(200)
    expect(((await found.json()) as { data: { email: string } }).data.email).toBe('member@example.com')
    expect((await t.request('/api/users/does-not-exist', { token: admin.token })).status).toBe(404)
    expect((await t.request(`/api/users/${admin.id}`, { token: member.token })).status).toBe(403)
  })
})
