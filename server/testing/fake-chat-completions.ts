import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedChatRequest {
  path: string
  headers: IncomingMessage['headers']
  body: {
    model?: string
    stream?: boolean
    messages?: { role: string; content: string }[]
    response_format?: { type: string; json_schema?: { name?: string; schema?: unknown } }
  }
}

/**
 * What the fake endpoint does with the next requests:
 * - `chunks`: answers 200 with one Server-Sent Event per chunk, then `data: [DONE]`;
 * - `chunks` + `then: 'malformed'`: sends the chunks, then a line that is not JSON;
 * - `status`: answers that status with an OpenAI-style JSON error;
 * - `hang`: never answers;
 * - `reply`: answers with what the function returns for the request, streamed or not as asked
 *   (the scripted model of the planner and self-repair tests).
 */
export type FakeChatBehaviour =
  | { chunks: string[]; then?: 'malformed'; delayMs?: number }
  | { status: number; message: string }
  | { hang: true }
  /** A scripted model: the answer is computed from the request (an object is sent as JSON text). */
  | { reply: (request: RecordedChatRequest) => string | object }

/**
 * A local OpenAI-compatible `POST /v1/chat/completions` on 127.0.0.1: the HTTP edge for the real
 * provider client in tests.
 */
export async function startFakeChatCompletions() {
  const requests: RecordedChatRequest[] = []
  let behaviour: FakeChatBehaviour = { chunks: ['Hello'] }
  const hanging = new Set<ServerResponse>()

  const server = createServer((request, response) => {
    void handle(request, response)
  })

  async function handle(request: IncomingMessage, response: ServerResponse) {
    let raw = ''
    for await (const piece of request) raw += String(piece)
    const path = request.url ?? ''
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not found' } }))
      return
    }
    const recorded: RecordedChatRequest = { path, headers: request.headers, body: JSON.parse(raw) as RecordedChatRequest['body'] }
    requests.push(recorded)
    const current = behaviour

    if ('reply' in current) {
      const answer = current.reply(recorded)
      const content = typeof answer === 'string' ? answer : JSON.stringify(answer)
      if (!recorded.body.stream) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            created: 0,
            model: recorded.body.model ?? 'test',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: {
              prompt_tokens: Math.ceil(raw.length / 4),
              completion_tokens: Math.ceil(content.length / 4),
              total_tokens: Math.ceil((raw.length + content.length) / 4),
            },
          }),
        )
        return
      }
      await handleStream({ chunks: [content] }, response)
      return
    }

    if ('hang' in current) {
      hanging.add(response)
      response.on('close', () => hanging.delete(response))
      return
    }
    if ('status' in current) {
      response
        .writeHead(current.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: current.message, type: 'server_error' } }))
      return
    }
    await handleStream(current, response)
  }

  async function handleStream(current: { chunks: string[]; then?: 'malformed'; delayMs?: number }, response: ServerResponse) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
    const id = 'chatcmpl-test'
    const event = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`)
    for (const content of current.chunks) {
      event({
        id,
        object: 'chat.completion.chunk',
        created: 0,
        model: 'test',
        choices: [{ index: 0, delta: { content }, finish_reason: null }],
      })
      await new Promise((resolve) => setTimeout(resolve, current.delayMs ?? 5))
    }
    if (current.then === 'malformed') {
      response.end('data: {this is not json\n\n')
      return
    }
    event({ id, object: 'chat.completion.chunk', created: 0, model: 'test', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
    response.end('data: [DONE]\n\n')
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    respondWith(next: FakeChatBehaviour) {
      behaviour = next
    },
    async close() {
      for (const response of hanging) response.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}

export type FakeChatCompletions = Awaited<ReturnType<typeof startFakeChatCompletions>>
