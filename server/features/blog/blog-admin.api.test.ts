import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blogPosts } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

type Account = Awaited<ReturnType<TestApp['signUp']>>
type ErrorBody = { message: string; code?: string; issues?: { path: string; message: string }[] }
type Post = {
  id: string
  title: string
  slug: string
  excerpt: string | null
  content: string
  status: 'draft' | 'published'
  category: string | null
  tags: string[]
  featured: boolean
  coverImageUrl: string | null
  cover_image_url: string | null
  publishedAt: string | null
  published_at: string | null
  author: { fullName: string | null }
}
type AuditEntry = {
  actor: { id: string | null; email: string }
  action: string
  targetId: string | null
  summary: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

let t: TestApp
let admin: Account
let member: Account

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ fullName: 'Edith Editor', role: 'admin' })
  member = await t.signUp()
})
afterAll(async () => {
  await t.close()
})

async function postOf(response: Response, status = 200): Promise<Post> {
  expect(response.status, await response.clone().text()).toBe(status)
  return ((await response.json()) as { data: Post }).data
}

async function errorOf(response: Response, status = 400): Promise<ErrorBody> {
  expect(response.status).toBe(status)
  return (await response.json()) as ErrorBody
}

const create = (body: unknown, token = admin.token) => t.request('/api/blog', { body, token })
const update = (id: string, body: unknown, token = admin.token) => t.request(`/api/blog/${id}`, { method: 'PUT', body, token })
const publicGet = (slug: string) => t.request(`/api/blog/${slug}`)

async function auditFor(targetId: string): Promise<AuditEntry[]> {
  const response = await t.request('/api/audit?targetType=post&limit=100', { token: admin.token })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: AuditEntry[] }).data.filter((entry) => entry.targetId === targetId)
}

describe('POST /api/blog', () => {
  it('creates a draft by default, with the admin as author, that readers cannot see', async () => {
    const post = await postOf(await create({ title: 'Hidden Until Ready', content: '# Hello' }), 201)
    expect(post).toMatchObject({
      title: 'Hidden Until Ready',
      slug: 'hidden-until-ready',
      content: '# Hello',
      status: 'draft',
      publishedAt: null,
      published_at: null,
      featured: false,
      tags: [],
      category: null,
      coverImageUrl: null,
      author: { fullName: 'Edith Editor' },
    })
    expect((await publicGet('hidden-until-ready')).status).toBe(404)
    const list = (await (await t.request('/api/blog')).json()) as { data: Post[] }
    expect(list.data.map((item) => item.id)).not.toContain(post.id)
  })

  it('publishes at once when status is published: published_at is set and readers see it', async () => {
    const startedAt = Date.now()
    const post = await postOf(await create({ title: 'Live From Day One', status: 'published', category: 'AI' }), 201)
    expect(post.status).toBe('published')
    expect(new Date(post.published_at ?? 0).getTime()).toBeGreaterThanOrEqual(startedAt - 1000)
    const read = await postOf(await publicGet('live-from-day-one'))
    expect(read).toMatchObject({ id: post.id, category: 'AI' })
  })

  it('makes the slug from the title and numbers a repeated title', async () => {
    const first = await postOf(await create({ title: 'Same Title, Twice!' }), 201)
    const second = await postOf(await create({ title: 'Same title twice' }), 201)
    const third = await postOf(await create({ title: '  same TITLE twice ' }), 201)
    expect([first.slug, second.slug, third.slug]).toEqual(['same-title-twice', 'same-title-twice-2', 'same-title-twice-3'])
  })

  it('turns a comma-separated tag string into a trimmed list without blanks or repeats', async () => {
    const post = await postOf(await create({ title: 'Tagged', tags: ' Automation , browser,,  AI ,browser ' }), 201)
    expect(post.tags).toEqual(['automation', 'browser', 'ai'])
    const listed = await postOf(await create({ title: 'Tagged list', tags: ['One ', ' two'] }), 201)
    expect(listed.tags).toEqual(['one', 'two'])
  })

  it('answers 400 naming the field for a missing title, an unknown category or a bad status', async () => {
    const missing = await errorOf(await create({ content: 'no title' }))
    expect(missing.message).toBe('title: Title is required')
    expect(missing.issues?.[0]?.path).toBe('title')
    const blank = await errorOf(await create({ title: '   ' }))
    expect(blank.message).toBe('title: Title is required')
    const category = await errorOf(await create({ title: 'Bad category', category: 'Gardening' }))
    expect(category.message).toMatch(/^category: Category must be one of: Automation, /)
    const status = await errorOf(await create({ title: 'Bad status', status: 'scheduled' }))
    expect(status.message).toBe('status: Status must be draft or published.')
    expect(await t.db.select().from(blogPosts).where(eq(blogPosts.title, 'Bad category'))).toEqual([])
  })

  it('accepts only an uploaded cover (/uploads/covers/…): javascript:, external and escaping URLs are 400', async () => {
    const post = await postOf(
      await create({ title: 'With cover', coverImageUrl: '/uploads/covers/0b6f0c2e-1111-4222-8333-444455556666.png' }),
      201,
    )
    expect(post.coverImageUrl).toBe('/uploads/covers/0b6f0c2e-1111-4222-8333-444455556666.png')
    expect(post.cover_image_url).toBe(post.coverImageUrl)
    for (const coverImageUrl of [
      'javascript:alert(1)',
      'https://evil.example.com/x.png',
      '/uploads/covers/../../etc/passwd',
      '/images/x.png',
    ]) {
      const refused = await errorOf(await create({ title: 'Bad cover', coverImageUrl }))
      expect(refused.message, coverImageUrl).toBe('coverImageUrl: The cover must be an uploaded image.')
    }
    const edited = await errorOf(await update(post.id, { coverImageUrl: 'javascript:alert(1)' }))
    expect(edited.message).toBe('coverImageUrl: The cover must be an uploaded image.')
    // An empty string removes the cover.
    expect((await postOf(await update(post.id, { coverImageUrl: '' }))).coverImageUrl).toBeNull()
  })

  it('audits the creation', async () => {
    const post = await postOf(await create({ title: 'Audited Post', category: 'Tutorial' }), 201)
    const [entry] = await auditFor(post.id)
    expect(entry).toMatchObject({
      action: 'post.create',
      actor: { id: admin.id, email: admin.email },
      summary: 'Created "Audited Post" (draft)',
      before: null,
      after: { title: 'Audited Post', slug: 'audited-post', status: 'draft', category: 'Tutorial', featured: false },
    })
  })
})

describe('PUT /api/blog/:id', () => {
  it('while a draft, the slug follows the title; once published it stays, and published_at is kept', async () => {
    const draft = await postOf(await create({ title: 'Working Title' }), 201)
    const renamed = await postOf(await update(draft.id, { title: 'Better Title' }))
    expect(renamed.slug).toBe('better-title')
    expect(renamed.publishedAt).toBeNull()

    const published = await postOf(await update(draft.id, { status: 'published' }))
    expect(published.slug).toBe('better-title')
    expect(published.published_at).not.toBeNull()
    expect((await postOf(await publicGet('better-title'))).id).toBe(draft.id)

    const retitled = await postOf(await update(draft.id, { title: 'Final Title', excerpt: 'Now with an excerpt' }))
    expect(retitled).toMatchObject({ title: 'Final Title', slug: 'better-title', excerpt: 'Now with an excerpt' })
    expect(retitled.published_at).toBe(published.published_at)
    expect((await publicGet('final-title')).status).toBe(404)

    // Back to draft and published again: the first publication date stays.
    const unpublished = await postOf(await update(draft.id, { status: 'draft' }))
    expect(unpublished.publishedAt).toBe(published.publishedAt)
    expect((await publicGet('better-title')).status).toBe(404)
    const republished = await postOf(await update(draft.id, { status: 'published' }))
    expect(republished.publishedAt).toBe(published.publishedAt)
    expect(republished.slug).toBe('better-title')
  })

  it('a renamed draft takes a free slug, and keeps its own slug when the title gives the same one', async () => {
    await postOf(await create({ title: 'Taken Name' }), 201)
    const draft = await postOf(await create({ title: 'Something Else' }), 201)
    expect((await postOf(await update(draft.id, { title: 'Taken name!' }))).slug).toBe('taken-name-2')
    expect((await postOf(await update(draft.id, { title: 'Taken Name' }))).slug).toBe('taken-name-2')
  })

  it('saves only the fields sent, turns tag strings into lists, and audits before and after', async () => {
    const post = await postOf(await create({ title: 'Partial Edits', category: 'AI', excerpt: 'Short', tags: 'one', featured: true }), 201)
    const edited = await postOf(await update(post.id, { tags: 'a, b ,', category: 'Development' }))
    expect(edited).toMatchObject({ title: 'Partial Edits', excerpt: 'Short', featured: true, tags: ['a', 'b'], category: 'Development' })

    const [entry] = await auditFor(post.id)
    expect(entry).toMatchObject({
      action: 'post.update',
      actor: { id: admin.id },
      before: { category: 'AI', title: 'Partial Edits' },
      after: { category: 'Development', title: 'Partial Edits' },
    })
  })

  it('answers 400 naming the field, 404 for an unknown post, 400 for an id that is not a UUID', async () => {
    const post = await postOf(await create({ title: 'Validation Target' }), 201)
    expect((await errorOf(await update(post.id, { category: 'Gardening' }))).message).toMatch(/^category: /)
    expect((await errorOf(await update(post.id, { title: '' }))).message).toBe('title: Title is required')
    expect((await errorOf(await update('00000000-0000-4000-8000-000000000000', { title: 'X' }), 404)).message).toBe('Post not found')
    expect((await errorOf(await update('not-a-uuid', { title: 'X' }))).message).toBe('id: id must be a post id')
    const [row] = await t.db.select().from(blogPosts).where(eq(blogPosts.id, post.id))
    expect(row?.title).toBe('Validation Target')
  })
})

describe('DELETE /api/blog/:id', () => {
  it('deletes a post: it is gone for readers and editors, and the deletion is audited', async () => {
    const post = await postOf(await create({ title: 'Short Lived', status: 'published' }), 201)
    expect((await publicGet('short-lived')).status).toBe(200)
    const response = await t.request(`/api/blog/${post.id}`, { method: 'DELETE', token: admin.token })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ data: { success: true } })

    expect((await publicGet('short-lived')).status).toBe(404)
    expect((await update(post.id, { title: 'Back?' })).status).toBe(404)
    expect((await t.request(`/api/blog/${post.id}`, { method: 'DELETE', token: admin.token })).status).toBe(404)
    const [entry] = await auditFor(post.id)
    expect(entry).toMatchObject({ action: 'post.delete', before: { title: 'Short Lived', status: 'published' }, after: null })
  })
})

describe('who may write', () => {
  it('members get 403 and visitors 401 for create, update and delete, and nothing changes', async () => {
    const post = await postOf(await create({ title: 'Protected Post' }), 201)
    expect((await create({ title: 'By a member' }, member.token)).status).toBe(403)
    expect((await t.request('/api/blog', { body: { title: 'By a visitor' } })).status).toBe(401)
    expect((await update(post.id, { status: 'published' }, member.token)).status).toBe(403)
    expect((await t.request(`/api/blog/${post.id}`, { method: 'PUT', body: { status: 'published' } })).status).toBe(401)
    expect((await t.request(`/api/blog/${post.id}`, { method: 'DELETE', token: member.token })).status).toBe(403)
    expect((await t.request(`/api/blog/${post.id}`, { method: 'DELETE' })).status).toBe(401)

    const rows = await t.db.select().from(blogPosts).where(eq(blogPosts.id, post.id))
    expect(rows).toMatchObject([{ status: 'draft' }])
    expect(await t.db.select().from(blogPosts).where(eq(blogPosts.title, 'By a member'))).toEqual([])
  })
})
