import { z } from '@hono/zod-openapi'
import { admin, signedInRoute } from '#server/http/access.ts'
import type { TypedResponse } from 'hono'
import { stream } from 'hono/streaming'
import { blogDraftRequestSchema, excerptFromMarkdown } from '#common/ai.ts'
import { AppError } from '#common/errors.ts'
import { createRouter, errorResponses, errorSchema, jsonBody } from '#server/http/openapi.ts'
import type { BlogDrafter } from './blog-drafter.ts'

const draftSchema = z
  .object({ content: z.string(), excerpt: z.string(), title: z.string() })
  .openapi('BlogDraft', { description: 'A Markdown draft, its excerpt (spec rule: first paragraph, 150 characters) and the title used.' })

const generateBlog = signedInRoute(admin('admin:content'), {
  method: 'post',
  path: '/generate-blog',
  tags: ['AI'],
  summary: 'Draft a blog post with AI (admin)',
  description:
    'Streams the Markdown draft as text/plain while it is written. With `Accept: application/json`, waits and answers ' +
    '`{ data: { content, excerpt, title } }`. Without a configured provider the draft is written offline from a template ' +
    '(header X-Drafter: offline). A provider failure before the first piece is a 503 JSON error; a failure later ends ' +
    'the stream with a line "[Generation stopped: <reason>]".',
  request: { body: jsonBody(blogDraftRequestSchema) },
  responses: {
    200: {
      description: 'The draft',
      headers: z.object({ 'X-Drafter': z.enum(['offline', 'openai-compatible']).openapi({ description: 'Who wrote the draft' }) }),
      content: {
        'text/plain': { schema: z.string().openapi({ description: 'Markdown, streamed' }) },
        'application/json': { schema: z.object({ data: draftSchema }) },
      },
    },
    ...errorResponses(400),
    503: {
      description: 'The AI provider failed, timed out or could not be reached (code AI_PROVIDER_ERROR)',
      content: { 'application/json': { schema: errorSchema } },
    },
  },
})

export function createAiApi(drafter: BlogDrafter) {
  return createRouter().openapi(generateBlog, async (c) => {
    const input = c.req.valid('json')
    const signal = c.req.raw.signal
    c.header('X-Drafter', drafter.kind)
    c.header('Cache-Control', 'no-store')

    if (wantsJson(c.req.header('accept'))) {
      let content = ''
      for await (const piece of drafter.stream(input, signal)) content += piece
      return c.json({ data: { content, excerpt: excerptFromMarkdown(content), title: input.title } }, 200)
    }

    // Wait for the first piece, so that a provider that fails at once still gets a JSON error (onError: 503).
    const pieces = drafter.stream(input, signal)[Symbol.asyncIterator]()
    const first = await pieces.next()

    c.header('Content-Type', 'text/plain; charset=utf-8')
    c.header('X-Content-Type-Options', 'nosniff')
    // Transfer-Encoding keeps the compress middleware (production) from buffering the stream.
    c.header('Transfer-Encoding', 'chunked')
    const response = stream(c, async (body) => {
      body.onAbort(() => {
        void pieces.return?.()
      })
      if (!first.done) await body.write(first.value)
      try {
        for (let next = await pieces.next(); !next.done && !body.aborted; next = await pieces.next()) await body.write(next.value)
      } catch (error) {
        const reason = error instanceof AppError ? error.message : 'Something went wrong on our side.'
        await body.write(`\n\n[Generation stopped: ${reason}]\n`)
      }
    })
    // The body is Markdown text, as documented for text/plain.
    return response as unknown as TypedResponse<string, 200, 'text'>
  })
}

/** JSON only when the client asks for it and prefers it to text (a browser's fetch sends * / *). */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false
  const types = accept.split(',').map((part) => part.split(';')[0]?.trim().toLowerCase())
  const json = types.indexOf('application/json')
  const text = types.indexOf('text/plain')
  return json !== -1 && (text === -1 || json < text)
}
