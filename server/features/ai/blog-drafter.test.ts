import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BLOG_LENGTH_WORDS, blogDraftRequestSchema, excerptFromMarkdown, type BlogDraftRequestInput } from '#common/ai.ts'
import { startFakeChatCompletions, type FakeChatCompletions } from '#server/testing/fake-chat-completions.ts'
import { AiProviderError, createBlogDrafter, type BlogDrafter } from './blog-drafter.ts'
import { countWords, OFFLINE_NOTICE, writeOfflineDraft } from './offline-draft.ts'

const request = (input: BlogDraftRequestInput = {}) =>
  blogDraftRequestSchema.parse({
    title: 'Web Scraping for Beginners',
    keywords: 'python, proxies',
    tone: 'technical',
    length: 'short',
    ...input,
  })

async function collect(drafter: BlogDrafter, input = request(), signal?: AbortSignal) {
  const chunks: string[] = []
  for await (const chunk of drafter.stream(input, signal)) chunks.push(chunk)
  return chunks
}

async function providerError(promise: Promise<unknown>): Promise<AiProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(AiProviderError)
  const typed = error as AiProviderError
  expect(typed.status).toBe(503)
  expect(typed.code).toBe('AI_PROVIDER_ERROR')
  return typed
}

describe('the OpenAI-compatible drafter', () => {
  let fake: FakeChatCompletions
  let drafter: BlogDrafter

  beforeAll(async () => {
    fake = await startFakeChatCompletions()
    drafter = createBlogDrafter({ baseUrl: fake.baseUrl, apiKey: 'sk-test-key', model: 'test-model', maxRetries: 0, timeoutMs: 2000 })
  })
  afterAll(async () => {
    await fake.close()
  })
  beforeEach(() => {
    fake.requests.length = 0
  })

  it('describes itself', () => {
    expect(drafter.kind).toBe('openai-compatible')
    expect(drafter.model).toBe('test-model')
  })

  it('streams the text in several chunks, in order', async () => {
    fake.respondWith({ chunks: ['## Intro', '\n\nScraping ', 'starts ', 'with ', 'HTTP.'] })
    const chunks = await collect(drafter)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.join('')).toBe('## Intro\n\nScraping starts with HTTP.')
  })

  it('sends the model, the API key as a bearer token, and a prompt with title, keywords, tone and length', async () => {
    fake.respondWith({ chunks: ['ok'] })
    await collect(drafter, request({ tone: 'casual', length: 'long' }))
    expect(fake.requests).toHaveLength(1)
    const [sent] = fake.requests
    expect(sent?.path).toBe('/v1/chat/completions')
    expect(sent?.headers.authorization).toBe('Bearer sk-test-key')
    expect(sent?.body.model).toBe('test-model')
    expect(sent?.body.stream).toBe(true)
    const prompt = sent?.body.messages?.find((message) => message.role === 'user')?.content ?? ''
    expect(prompt).toContain('Web Scraping for Beginners')
    expect(prompt).toContain('python, proxies')
    expect(prompt).toContain('Tone: casual')
    expect(prompt).toContain(`Length: long (${BLOG_LENGTH_WORDS.long.label})`)
    expect(sent?.body.messages?.[0]?.role).toBe('system')
  })

  it('turns an HTTP 500 into an AiProviderError with the status and the provider message', async () => {
    fake.respondWith({ status: 500, message: 'The model is overloaded' })
    const error = await providerError(collect(drafter))
    expect(error.message).toBe('The AI provider answered HTTP 500: The model is overloaded')
  })

  it('says when the provider refuses the API key', async () => {
    fake.respondWith({ status: 401, message: 'Incorrect API key provided' })
    const error = await providerError(collect(drafter))
    expect(error.message).toBe('The AI provider refused the API key (HTTP 401): Incorrect API key provided')
  })

  it('times out a provider that never answers', async () => {
    fake.respondWith({ hang: true })
    const quick = createBlogDrafter({ baseUrl: fake.baseUrl, model: 'test-model', maxRetries: 0, timeoutMs: 300 })
    const started = Date.now()
    const error = await providerError(collect(quick))
    expect(error.message).toBe('The AI provider did not finish within 300 ms.')
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('reports a malformed stream after the text that did arrive', async () => {
    fake.respondWith({ chunks: ['First ', 'part'], then: 'malformed' })
    const received: string[] = []
    const error = await providerError(
      (async () => {
        for await (const chunk of drafter.stream(request())) received.push(chunk)
      })(),
    )
    expect(received.join('')).toBe('First part')
    expect(error.message).toBe('The AI provider sent a malformed response stream.')
  })

  it('reports an unreachable provider', async () => {
    const closed = await startFakeChatCompletions()
    const baseUrl = closed.baseUrl
    await closed.close()
    const unreachable = createBlogDrafter({ baseUrl, model: 'test-model', maxRetries: 0, timeoutMs: 2000 })
    const error = await providerError(collect(unreachable))
    expect(error.message).toMatch(/^Could not reach the AI provider at 127\.0\.0\.1:\d+: ECONNREFUSED\.$/)
  })

  it('stops quietly when the caller aborts', async () => {
    fake.respondWith({ chunks: ['a', 'b', 'c', 'd'], delayMs: 50 })
    const controller = new AbortController()
    const chunks: string[] = []
    for await (const chunk of drafter.stream(request(), controller.signal)) {
      chunks.push(chunk)
      controller.abort()
    }
    expect(chunks.join('').length).toBeLessThan(4)
  })

  it('needs a model with a base URL', () => {
    expect(() => createBlogDrafter({ baseUrl: fake.baseUrl })).toThrow('AI_MODEL is required when AI_BASE_URL is set.')
  })
})

describe('the offline drafter', () => {
  const drafter = createBlogDrafter({})

  it('is used without a base URL', () => {
    expect(drafter.kind).toBe('offline')
    expect(drafter.model).toBeNull()
  })

  it('says at the top that it is an offline draft', () => {
    const draft = writeOfflineDraft(request())
    expect(draft.startsWith(OFFLINE_NOTICE)).toBe(true)
    expect(OFFLINE_NOTICE).toMatch(/^> Offline draft: no AI provider is configured/)
  })

  it('writes a structured Markdown draft with the title and a section per keyword', () => {
    const draft = writeOfflineDraft(request({ keywords: ['python', 'proxies', 'rate limits'] }))
    expect(draft).toContain('Web Scraping for Beginners')
    const headings = draft.split('\n').filter((line) => line.startsWith('## '))
    expect(headings.length).toBeGreaterThanOrEqual(4)
    for (const keyword of ['python', 'proxies', 'rate limits']) {
      expect(headings.some((heading) => heading.toLowerCase().includes(keyword))).toBe(true)
    }
    expect(headings.at(-1)).toBe('## Conclusion')
    // The excerpt comes from the introduction, not from the notice.
    expect(excerptFromMarkdown(draft)).not.toContain('Offline draft')
    expect(excerptFromMarkdown(draft).length).toBeGreaterThan(50)
  })

  it('writes about the requested number of words', () => {
    for (const length of ['short', 'medium', 'long'] as const) {
      for (const keywords of ['', 'a, b, c, d, e, f, g, h, i, j']) {
        const words = countWords(writeOfflineDraft(request({ length, keywords })))
        expect(words, `${length} with keywords "${keywords}"`).toBeGreaterThanOrEqual(BLOG_LENGTH_WORDS[length].min)
        expect(words, `${length} with keywords "${keywords}"`).toBeLessThanOrEqual(BLOG_LENGTH_WORDS[length].max)
      }
    }
    expect(countWords(writeOfflineDraft(request({ length: 'long' })))).toBeGreaterThan(
      countWords(writeOfflineDraft(request({ length: 'short' }))),
    )
  })

  it('changes with the tone', () => {
    expect(writeOfflineDraft(request({ tone: 'casual' }))).not.toBe(writeOfflineDraft(request({ tone: 'professional' })))
  })

  it('is deterministic, and streams the same text in several chunks', async () => {
    const input = request({ length: 'medium' })
    const chunks = await collect(drafter, input)
    expect(chunks.length).toBeGreaterThan(10)
    expect(chunks.join('')).toBe(writeOfflineDraft(input))
    expect(writeOfflineDraft(input)).toBe(writeOfflineDraft(request({ length: 'medium' })))
    expect((await collect(drafter, input)).join('')).toBe(chunks.join(''))
  })

  it('stops when the caller aborts', async () => {
    const controller = new AbortController()
    controller.abort()
    expect(await collect(drafter, request(), controller.signal)).toEqual([])
  })
})
