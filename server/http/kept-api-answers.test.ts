import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blogPosts } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { SHAREABLE_ANSWER } from './kept-api-answers.ts'

// Public API reads are kept per public content version (docs/decisions/052). To see whether an
// answer was kept, a post is changed with the version's triggers off: the change is then
// invisible to the version, so only a kept answer can still show the old title.

let t: TestApp
let admin: Awaited<ReturnType<TestApp['signUp']>>

type ListBody = { data: { slug: string; title: string }[]; total: number }

/** Changes a post's title without telling the public content version (its triggers do not fire). */
async function retitleUnannounced(slug: string, title: string) {
  await t.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`)
    await tx.update(blogPosts).set({ title }).where(eq(blogPosts.slug, slug))
  })
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ email: 'editor@example.com', fullName: 'Edith Editor', role: 'admin' })
  await t.db.insert(blogPosts).values([
    {
      title: 'Kept post',
      slug: 'kept-post',
      // Long enough to be compressed.
      content: 'A paragraph about automation. '.repeat(100),
      status: 'published',
      publishedAt: new Date(),
      authorId: admin.id,
    },
    { title: 'A draft', slug: 'a-draft', content: 'not yet', status: 'draft', authorId: admin.id },
  ])
})

afterAll(async () => {
  await t?.close()
})

describe('kept public API answers', () => {
  it('answers a visitor from the kept answer while the public content is unchanged, and anew once it changes', async () => {
    const first = await t.request('/api/blog/kept-post', { ip: '192.0.2.1' })
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe(SHAREABLE_ANSWER)
    expect(((await first.json()) as { data: { title: string } }).data.title).toBe('Kept post')

    await retitleUnannounced('kept-post', 'Quietly renamed')
    const kept = await t.request('/api/blog/kept-post', { ip: '192.0.2.1' })
    expect(((await kept.json()) as { data: { title: string } }).data.title).toBe('Kept post')
    expect(kept.headers.get('content-type')).toMatch(/^application\/json/)

    // A change the version hears of (any update of a post fires its trigger) ends the kept answer.
    await t.db.update(blogPosts).set({ title: 'Renamed aloud' }).where(eq(blogPosts.slug, 'kept-post'))
    const fresh = await t.request('/api/blog/kept-post', { ip: '192.0.2.1' })
    expect(((await fresh.json()) as { data: { title: string } }).data.title).toBe('Renamed aloud')
  })

  it('counts every kept answer against the API limit, with the client’s own RateLimit headers', async () => {
    await t.request('/api/blog', { ip: '192.0.2.20' })
    const remaining: (string | null)[] = []
    for (const ip of ['192.0.2.21', '192.0.2.21', '192.0.2.22']) {
      const response = await t.request('/api/blog', { ip })
      expect(response.status).toBe(200)
      remaining.push(response.headers.get('ratelimit-remaining'))
    }
    const limit = Number((await t.request('/api/blog', { ip: '192.0.2.23' })).headers.get('ratelimit-limit'))
    expect(remaining).toEqual([String(limit - 1), String(limit - 2), String(limit - 1)])
  })

  it('never gives a kept answer to, or keeps one for, a caller with a credential', async () => {
    await t.request('/api/blog/kept-post')
    await retitleUnannounced('kept-post', 'Seen by members')
    const byToken = await t.request('/api/blog/kept-post', { token: admin.token })
    expect(byToken.headers.get('cache-control')).not.toBe(SHAREABLE_ANSWER)
    expect(((await byToken.json()) as { data: { title: string } }).data.title).toBe('Seen by members')
    // An admin's drafts are never kept, and never reach a visitor.
    const drafts = (await (await t.request('/api/blog?status=all', { token: admin.token })).json()) as ListBody
    expect(drafts.data.map((post) => post.slug)).toContain('a-draft')
    const visitor = (await (await t.request('/api/blog?status=all')).json()) as ListBody
    expect(visitor.data.map((post) => post.slug)).not.toContain('a-draft')
    // A credential that is not valid is a credential: no kept answer either.
    const badToken = await t.request('/api/blog/kept-post', { token: 'not-a-session' })
    expect(badToken.headers.get('cache-control')).not.toBe(SHAREABLE_ANSWER)
  })

  it('sends the kept answer compressed as the client accepts, the same JSON', async () => {
    const plain = await (await t.request('/api/blog/kept-post')).text()
    for (const [accept, encoding, decode] of [
      ['gzip', 'gzip', gunzipSync],
      ['gzip, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const compressed = await t.request('/api/blog/kept-post', { headers: { 'accept-encoding': accept } })
      expect(compressed.headers.get('content-encoding')).toBe(encoding)
      expect(compressed.headers.get('vary')).toMatch(/Accept-Encoding/)
      expect(decode(Buffer.from(await compressed.arrayBuffer())).toString()).toBe(plain)
    }
    expect((await t.request('/api/blog/kept-post')).headers.get('content-encoding')).toBeNull()
  })

  it('keeps no refusal: a post that did not exist is found as soon as it does, even unannounced', async () => {
    expect((await t.request('/api/blog/not-yet')).status).toBe(404)
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`)
      await tx.insert(blogPosts).values({
        title: 'Not yet',
        slug: 'not-yet',
        content: 'now',
        status: 'published',
        publishedAt: new Date(),
        authorId: admin.id,
      })
    })
    expect((await t.request('/api/blog/not-yet')).status).toBe(200)
  })
})
