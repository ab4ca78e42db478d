import { Hono } from 'hono'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blogDraftRequestSchema, excerptFromMarkdown } from '#common/ai.ts'
import type { AppEnv } from '#server/http/app-env.ts'
import { errorHandler } from '#server/http/error-handler.ts'
import { resolveSession } from '#server/http/session.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startFakeChatCompletions, type FakeChatCompletions } from '#server/testing/fake-chat-completions.ts'
import { createAiApi } from './ai.api.ts'
import { createBlogDrafter, type BlogDrafter } from './blog-drafter.ts'
import { OFFLINE_NOTICE, writeOfflineDraft } from './offline-draft.ts'

type ErrorBody = { message: string; code?: string; issues?: { path: string; message: string }[] }

let t: TestApp
let fake: FakeChatCompletions
let admin: string
let member: string

/** The AI router behind the app's own session and error middleware (createApp mounts it the same way). */
function mount(drafter: BlogDrafter) {
  const app = new Hono<AppEnv>()
  app.use(resolveSession(t.services.sessions))
  app.route('/api/ai', createAiApi(drafter))
  app.onError(errorHandler(pino({ level: 'silent' })))
  return (body: unknown, init: { token?: string; accept?: string } = {}) => {
    const headers = new Headers({ 'content-type': 'application/json' })
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    if (init.accept) headers.set('accept', init.accept)
    return app.request('/api/ai/generate-blog', { method: 'POST', headers, body: JSON.stringify(body) })
  }
}

async function readChunks(response: Response): Promise<string[]> {
  const reader = response.body?.getReader()
  if (!reader) throw new Error('no body')
  const decoder = new TextDecoder()
  const chunks: string[] = []
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(decoder.decode(read.value, { stream: true }))
  return chunks
}

const input = { title: 'Scraping Without Getting Blocked', keywords: 'proxies, rate limits', tone: 'professional', length: 'short' }

beforeAll(async () => {
  t = await createTestApp()
  fake = await startFakeChatCompletions()
  admin = (await t.signUp({ role: 'admin' })).token
  member = (await t.signUp()).token
})
afterAll(async () => {
  await fake.close()
  await t.close()
})

describe('POST /api/ai/generate-blog', () => {
  const offline = () => mount(createBlogDrafter())
  const provider = () =>
    mount(createBlogDrafter({ baseUrl: fake.baseUrl, apiKey: 'sk-test', model: 'test-model', maxRetries: 0, timeoutMs: 2000 }))

  it('answers 401 to a visitor and 403 to a member', async () => {
    const post = offline()
    const visitor = await post(input)
    expect(visitor.status).toBe(401)
    expect(((await visitor.json()) as ErrorBody).code).toBe('UNAUTHORIZED')
    const signedIn = await post(input, { token: member })
    expect(signedIn.status).toBe(403)
    expect((await signedIn.json()) as ErrorBody).toEqual({ message: 'Admin access required.', code: 'FORBIDDEN' })
  })

  it('answers 400 naming the field when the title is missing', async () => {
    const response = await offline()({ keywords: 'seo', tone: 'casual' }, { token: admin })
    expect(response.status).toBe(400)
    const body = (await response.json()) as ErrorBody
    expect(body.message).toBe('title: Please enter a title to generate content')
    expect(body.code).toBe('VALIDATION_ERROR')
    expect(body.issues).toEqual([{ path: 'title', message: 'Please enter a title to generate content' }])

    const badTone = await offline()({ title: 'T', tone: 'sarcastic' }, { token: admin })
    expect(badTone.status).toBe(400)
    expect(((await badTone.json()) as ErrorBody).message).toMatch(/^tone: Tone must be one of/)
  })

  it('streams the offline draft as text, with X-Drafter: offline', async () => {
    const response = await offline()(input, { token: admin })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(response.headers.get('x-drafter')).toBe('offline')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const chunks = await readChunks(response)
    expect(chunks.length).toBeGreaterThan(1)
    const text = chunks.join('')
    expect(text.startsWith(OFFLINE_NOTICE)).toBe(true)
    expect(text).toBe(writeOfflineDraft(blogDraftRequestSchema.parse(input)))
  })

  it("accepts the spec's { topic, keywords, tone } body", async () => {
    const response = await offline()({ topic: 'Data pipelines', keywords: ['etl', 'python'], tone: 'technical' }, { token: admin })
    expect(response.status).toBe(200)
    const text = (await readChunks(response)).join('')
    expect(text).toContain('Data pipelines')
    expect(text).toContain('etl')
  })

  it('answers JSON { data: { content, excerpt, title } } to Accept: application/json', async () => {
    const response = await offline()(input, { token: admin, accept: 'application/json' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.headers.get('x-drafter')).toBe('offline')
    const { data } = (await response.json()) as { data: { content: string; excerpt: string; title: string } }
    expect(data.title).toBe(input.title)
    expect(data.content).toBe(writeOfflineDraft(blogDraftRequestSchema.parse(input)))
    expect(data.excerpt).toBe(excerptFromMarkdown(data.content))
    expect(data.excerpt.length).toBeLessThanOrEqual(153)
    expect(data.excerpt).not.toContain('Offline draft')
  })

  it('streams what the provider writes, with X-Drafter: openai-compatible', async () => {
    fake.respondWith({ chunks: ['Proxies ', 'spread ', 'requests.'] })
    const response = await provider()(input, { token: admin })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-drafter')).toBe('openai-compatible')
    expect((await readChunks(response)).join('')).toBe('Proxies spread requests.')
  })

  it('answers 503 JSON with the reason when the provider fails before the first piece', async () => {
    fake.respondWith({ status: 500, message: 'upstream exploded' })
    const response = await provider()(input, { token: admin })
    expect(response.status).toBe(503)
    expect((await response.json()) as ErrorBody).toEqual({
      message: 'The AI provider answered HTTP 500: upstream exploded',
      code: 'AI_PROVIDER_ERROR',
    })

    const json = await provider()(input, { token: admin, accept: 'application/json' })
    expect(json.status).toBe(503)
    expect(((await json.json()) as ErrorBody).code).toBe('AI_PROVIDER_ERROR')
  })

  it('ends the stream with the reason when the provider fails midway', async () => {
    fake.respondWith({ chunks: ['Half ', 'a draft'], then: 'malformed' })
    const response = await provider()(input, { token: admin })
    expect(response.status).toBe(200)
    expect((await readChunks(response)).join('')).toBe(
      'Half a draft\n\n[Generation stopped: The AI provider sent a malformed response stream.]\n',
    )
  })

  it('is in the OpenAPI document', () => {
    const document = createAiApi(createBlogDrafter()).getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'test', version: '1' } })
    const operation = document.paths?.['/generate-blog']?.post
    expect(operation?.summary).toBe('Draft a blog post with AI (admin)')
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '403', '503']))
  })
})
