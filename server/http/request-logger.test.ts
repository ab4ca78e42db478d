import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { Logger } from '#server/logger.ts'
import type { AppEnv } from './app-env.ts'
import { requestLogger } from './request-logger.ts'

function recordingLogger() {
  const lines: { level: 'info' | 'error'; entry: Record<string, unknown> }[] = []
  const logger = {
    info: (entry: Record<string, unknown>) => lines.push({ level: 'info', entry }),
    error: (entry: Record<string, unknown>) => lines.push({ level: 'error', entry }),
  } as unknown as Logger
  return { logger, lines }
}

describe('the request log', () => {
  it('logs a line per request with its status, errors at error level', async () => {
    const { logger, lines } = recordingLogger()
    const app = new Hono<AppEnv>()
    app.use(requestLogger(logger))
    app.get('/ok', (c) => c.text('ok'))
    app.get('/broken', (c) => c.text('no', 500))
    const ok = await app.request('/ok')
    await app.request('/broken')
    expect(ok.headers.get('x-request-id')).toBeTruthy()
    expect(lines.map(({ level, entry }) => [level, entry.path, entry.status])).toEqual([
      ['info', '/ok', 200],
      ['error', '/broken', 500],
    ])
  })

  it('logs a request its client gave up on as 499 at info level, not as the 500 its interrupted work produced', async () => {
    const { logger, lines } = recordingLogger()
    const client = new AbortController()
    const app = new Hono<AppEnv>()
    app.use(requestLogger(logger))
    app.get('/slow.data', (c) => {
      client.abort()
      return c.text('interrupted', 500)
    })
    await app.request(new Request('http://localhost/slow.data', { signal: client.signal }))
    expect(lines.map(({ level, entry }) => [level, entry.path, entry.status, entry.responseStatus])).toEqual([
      ['info', '/slow.data', 499, 500],
    ])
  })
})
