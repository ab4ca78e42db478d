import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type * as slug from '#common/slug.ts'
import { uniqueSlug } from '#common/slug.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// PGlite runs one transaction at a time, so the race is staged: the slug read is made to miss a
// post that another admin committed before our insert (what PostgreSQL allows under concurrency).
vi.mock('#common/slug.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof slug>()
  return { ...actual, uniqueSlug: vi.fn(actual.uniqueSlug) }
})

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Post = { id: string; slug: string; title: string }

let t: TestApp
let first: Account
let second: Account

beforeAll(async () => {
  t = await createTestApp()
  first = await t.signUp({ role: 'admin' })
  second = await t.signUp({ role: 'admin' })
})
afterAll(async () => {
  await t.close()
})

async function postOf(response: Response, status: number): Promise<Post> {
  expect(response.status, await response.clone().text()).toBe(status)
  return ((await response.json()) as { data: Post }).data
}

/** The next slug allocation sees none of the posts already stored. */
const staleSlugRead = () => vi.mocked(uniqueSlug).mockImplementationOnce((base) => base)

describe('blog slugs under concurrent saves', () => {
  it('creates both posts, with distinct slugs, when another admin took the slug after our read', async () => {
    const a = await postOf(await t.request('/api/blog', { body: { title: 'Launch Notes' }, token: first.token }), 201)
    staleSlugRead()
    const b = await postOf(await t.request('/api/blog', { body: { title: 'Launch Notes' }, token: second.token }), 201)
    expect([a.slug, b.slug]).toEqual(['launch-notes', 'launch-notes-2'])
  })

  it('renames a draft to a taken title without a 500', async () => {
    const draft = await postOf(await t.request('/api/blog', { body: { title: 'Working Title' }, token: first.token }), 201)
    staleSlugRead()
    const renamed = await postOf(
      await t.request(`/api/blog/${draft.id}`, { method: 'PUT', body: { title: 'Launch Notes' }, token: second.token }),
      200,
    )
    expect(renamed.slug).toBe('launch-notes-3')
  })

  it('gives two posts created at the same moment distinct slugs', async () => {
    const [a, b] = await Promise.all(
      [first, second].map(async (admin) =>
        postOf(await t.request('/api/blog', { body: { title: 'Same Moment' }, token: admin.token }), 201),
      ),
    )
    expect(new Set([a?.slug, b?.slug])).toEqual(new Set(['same-moment', 'same-moment-2']))
  })
})
