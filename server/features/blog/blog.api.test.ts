import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blogPosts } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

let t: TestApp
let admin: Awaited<ReturnType<TestApp['signUp']>>
let member: Awaited<ReturnType<TestApp['signUp']>>

const DAY_MS = 24 * 60 * 60 * 1000
const now = Date.now()

type Post = {
  slug: string
  title: string
  status: string
  tags: string[]
  author: { fullName: string | null; full_name: string | null }
  published_at: string | null
  publishedAt: string | null
}
type ListBody = { data: Post[]; total: number; page: number; limit: number }

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ email: 'editor@example.com', fullName: 'Edith Editor', role: 'admin' })
  member = await t.signUp({ email: 'reader@example.com', fullName: 'Rita Reader' })
  await t.db.insert(blogPosts).values([
    ...Array.from({ length: 12 }, (_, i) => ({
      title: `Published ${String(i).padStart(2, '0')}`,
      slug: `published-${String(i).padStart(2, '0')}`,
      content: `## Post ${i}`,
      status: 'published' as const,
      // published-00 is the newest.
      publishedAt: new Date(now - i * DAY_MS),
      category: i % 2 === 0 ? 'AI' : 'Tutorial',
      tags: i % 3 === 0 ? ['ai', 'news'] : ['browser'],
      featured: i === 5,
      authorId: admin.id,
    })),
    { title: 'Secret draft', slug: 'secret-draft', content: 'not yet', status: 'draft' as const, tags: ['hidden-tag'], authorId: admin.id },
    {
      title: 'Orphan post',
      slug: 'orphan',
      content: 'no author',
      status: 'published' as const,
      publishedAt: new Date(now - 100 * DAY_MS),
      tags: [],
    },
  ])
})
afterAll(async () => {
  await t.close()
})

async function list(path: string, init: { token?: string } = {}) {
  const response = await t.request(path, init)
  expect(response.status).toBe(200)
  return (await response.json()) as ListBody
}

describe('GET /api/blog', () => {
  it('lists published posts, newest published first, 10 a page, with total and author name', async () => {
    const first = await list('/api/blog')
    expect(first.total).toBe(13)
    expect(first.page).toBe(1)
    expect(first.limit).toBe(10)
    expect(first.data).toHaveLength(10)
    expect(first.data[0]?.slug).toBe('published-00')
    expect(first.data[0]?.author).toEqual({ fullName: 'Edith Editor', full_name: 'Edith Editor' })
    expect(first.data[0]?.published_at).toBe(first.data[0]?.publishedAt)
    const second = await list('/api/blog?page=2')
    expect(second.data.map((post) => post.slug)).toEqual(['published-10', 'published-11', 'orphan'])
    expect(second.data[2]?.author.fullName).toBeNull()
  })

  it('never lists drafts to visitors or members, even when they ask for them', async () => {
    for (const token of [undefined, member.token]) {
      for (const query of ['', '?status=draft', '?status=all', '?limit=100']) {
        const body = await list(`/api/blog${query}`, { token })
        expect(body.data.every((post) => post.status === 'published')).toBe(true)
        expect(body.data.map((post) => post.slug)).not.toContain('secret-draft')
      }
    }
  })

  it('lets admins list drafts (status=draft) and everything (status=all)', async () => {
    const drafts = await list('/api/blog?status=draft', { token: admin.token })
    expect(drafts.total).toBe(1)
    expect(drafts.data[0]?.slug).toBe('secret-draft')
    const all = await list('/api/blog?status=all&limit=100', { token: admin.token })
    expect(all.total).toBe(14)
    const byCookie = await t.request('/api/blog?status=draft', { cookie: admin.cookie })
    expect(((await byCookie.json()) as ListBody).total).toBe(1)
    // Without a status an admin sees the public list too.
    expect((await list('/api/blog', { token: admin.token })).total).toBe(13)
  })

  it('filters by category, featured and tag', async () => {
    expect((await list('/api/blog?category=ai')).total).toBe(6)
    const featured = await list('/api/blog?featured=true')
    expect(featured.data.map((post) => post.slug)).toEqual(['published-05'])
    expect((await list('/api/blog?featured=false')).total).toBe(12)
    expect((await list('/api/blog?tag=news')).total).toBe(4)
  })

  it('refuses malformed paging and filters with 400 naming the parameter', async () => {
    const response = await t.request('/api/blog?page=0')
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(/^page: /)
    expect((await t.request('/api/blog?featured=yes')).status).toBe(400)
    expect((await t.request('/api/blog?status=secret')).status).toBe(400)
  })
})

describe('GET /api/blog/tags', () => {
  it('returns the tags of published posts only, alphabetically', async () => {
    const response = await t.request('/api/blog/tags')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: ['ai', 'browser', 'news'] })
  })
})

describe('GET /api/blog/:slug', () => {
  it('returns a published post by slug with both spellings of its dates and author', async () => {
    const response = await t.request('/api/blog/published-03')
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as { data: Post & { content: string; created_at: string; updated_at: string } }
    expect(data.title).toBe('Published 03')
    expect(data.content).toBe('## Post 3')
    expect(data.author.full_name).toBe('Edith Editor')
    expect(data.created_at).toEqual(expect.any(String))
    expect(data.updated_at).toEqual(expect.any(String))
  })

  it('answers 404 JSON for a missing post and for a draft, whoever asks', async () => {
    for (const slug of ['no-such-post', 'secret-draft']) {
      for (const token of [undefined, member.token, admin.token]) {
        const response = await t.request(`/api/blog/${slug}`, { token })
        expect(response.status).toBe(404)
        expect(response.headers.get('content-type')).toMatch(/application\/json/)
        expect(((await response.json()) as { message: string }).message).toBe('Post not found')
      }
    }
  })
})

describe('blog service', () => {
  it('lists published summaries for the sitemap and feed, and titles for covers', async () => {
    const summaries = await t.services.blog.listPublishedSummaries()
    expect(summaries).toHaveLength(13)
    expect(summaries.map((post) => post.slug)).not.toContain('secret-draft')
    expect(await t.services.blog.getPublishedTitle('published-01')).toBe('Published 01')
    expect(await t.services.blog.getPublishedTitle('secret-draft')).toBeNull()
  })
})
