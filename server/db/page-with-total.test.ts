import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serviceInquiries } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// A page and the number of all matches in one query (count(*) over ()), and a page past the end,
// which has no row to carry the total.

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
  await t.db.insert(serviceInquiries).values(
    Array.from({ length: 7 }, (_, n) => ({
      name: `Pager ${n}`,
      email: `pager-${n}@example.com`,
      projectType: 'other' as const,
      message: `Inquiry ${n} about paging`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
    })),
  )
})
afterAll(async () => {
  await t.close()
})

describe('a page with its total', () => {
  it('answers each page with every match counted, the newest first', async () => {
    const first = await t.services.inquiries.list({ page: 1, limit: 3, search: 'pager-' })
    expect(first.total).toBe(7)
    expect(first.items.map((item) => item.name)).toEqual(['Pager 6', 'Pager 5', 'Pager 4'])
    expect(first.items[0]).not.toHaveProperty('totalRows')
    const last = await t.services.inquiries.list({ page: 3, limit: 3, search: 'pager-' })
    expect(last).toMatchObject({ total: 7, page: 3, limit: 3 })
    expect(last.items.map((item) => item.name)).toEqual(['Pager 0'])
  })

  it('counts apart for a page past the end, and answers 0 when nothing matches', async () => {
    expect(await t.services.inquiries.list({ page: 9, limit: 3, search: 'pager-' })).toEqual({ items: [], total: 7, page: 9, limit: 3 })
    expect(await t.services.inquiries.list({ page: 1, limit: 3, search: 'nobody-matches' })).toEqual({
      items: [],
      total: 0,
      page: 1,
      limit: 3,
    })
  })
})
