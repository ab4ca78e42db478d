import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { Conflict, Forbidden, NotFound, RateLimited, ServiceUnavailable, Unauthorized, ValidationError } from '#common/errors.ts'
import { DatabaseUnavailableError } from '#server/db/errors.ts'
import type { AppEnv } from './app-env.ts'
import { DATABASE_UNAVAILABLE_MESSAGE, errorHandler } from './error-handler.ts'
import { NUL_MESSAGE } from './request-guard.ts'

function appThrowing(error: unknown, path = '/') {
  const logged: { level: number; msg: string; err?: { message?: string } }[] = []
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) })
  const app = new Hono<AppEnv>()
  app.get('*', () => {
    throw error
  })
  app.onError(errorHandler(logger))
  return { request: () => app.request(path), logged }
}

describe('errorHandler', () => {
  it.each([
    [new ValidationError('email: bad'), 400, 'VALIDATION_ERROR'],
    [new Unauthorized(), 401, 'UNAUTHORIZED'],
    [new Forbidden(), 403, 'FORBIDDEN'],
    [new NotFound(), 404, 'NOT_FOUND'],
    [new Conflict('taken'), 409, 'CONFLICT'],
  ])('answers %s with its status, message and code', async (error, status, code) => {
    const response = await appThrowing(error).request()
    expect(response.status).toBe(status)
    expect(await response.json()).toEqual({ message: error.message, code })
  })

  it('includes the issues of a validation error', async () => {
    const response = await appThrowing(new ValidationError('email: bad', [{ path: 'email', message: 'bad' }])).request()
    expect(await response.json()).toMatchObject({ issues: [{ path: 'email', message: 'bad' }] })
  })

  it('adds Retry-After to a 429', async () => {
    const response = await appThrowing(new RateLimited('slow down', 42)).request()
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('42')
    expect(await response.json()).toMatchObject({ message: 'slow down', code: 'RATE_LIMITED' })
  })

  it('adds Retry-After to a 503 that knows when to try again (a busy cloud browser), and none when it does not', async () => {
    const busy = await appThrowing(new ServiceUnavailable('busy', 7)).request()
    expect(busy.status).toBe(503)
    expect(busy.headers.get('retry-after')).toBe('7')
    expect(await busy.json()).toEqual({ message: 'busy', code: 'SERVICE_UNAVAILABLE' })
    expect((await appThrowing(new ServiceUnavailable('down')).request()).headers.get('retry-after')).toBeNull()
  })

  it('turns HTTP exceptions (bad JSON, 413, 415) into JSON', async () => {
    const bad = await appThrowing(new HTTPException(400, { message: 'Malformed JSON in request body' })).request()
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ message: 'Malformed JSON in request body' })
    const big = await appThrowing(new HTTPException(413)).request()
    expect(big.status).toBe(413)
    expect(await big.json()).toMatchObject({ message: expect.stringMatching(/too large/i), code: 'PAYLOAD_TOO_LARGE' })
    const type = await appThrowing(new HTTPException(415, { message: 'Unsupported Media Type' })).request()
    expect(type.status).toBe(415)
    expect(await type.json()).toMatchObject({ message: expect.stringMatching(/json/i), code: 'UNSUPPORTED_MEDIA_TYPE' })
  })

  it('answers text PostgreSQL cannot store (a NUL character) with 400, also when Drizzle wraps it', async () => {
    const driverError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' })
    for (const error of [driverError, new Error('Failed query: insert ...', { cause: driverError })]) {
      const response = await appThrowing(error).request()
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ message: NUL_MESSAGE, code: 'INVALID_TEXT' })
    }
  })

  it('answers an unexpected error with a generic 500, logs it once, and leaks no detail', async () => {
    const { request, logged } = appThrowing(new Error('password=hunter2 at db.internal:5432'))
    const response = await request()
    expect(response.status).toBe(500)
    const text = await response.text()
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('db.internal')
    expect(JSON.parse(text)).toMatchObject({ message: expect.any(String), code: 'INTERNAL_ERROR' })
    const errors = logged.filter((entry) => entry.level >= 50)
    expect(errors).toHaveLength(1)
    expect(errors[0]?.err?.message).toContain('hunter2')
  })

  describe('a database that cannot be reached', () => {
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
    // Drizzle wraps the driver's error, with the query and its parameters in the message.
    const failedQuery = () => new Error('Failed query: select * from "sessions"\nparams: secret-token', { cause: refused() })

    it.each([
      ['a refused connection inside a failed query', failedQuery()],
      ['a dropped connection', new Error('Connection terminated unexpectedly')],
      ['a pool connect timeout', new Error('timeout exceeded when trying to connect')],
      [
        'PostgreSQL shutting down (57P01)',
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ],
      ['every address of the host refusing', new AggregateError([refused(), refused()])],
      ['an outage reported by the session lookup', new DatabaseUnavailableError(refused())],
    ])('answers %s under /api with 503 JSON and Retry-After, logged as a warning', async (_what, error) => {
      const { request, logged } = appThrowing(error, '/api/blog')
      const response = await request()
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(response.headers.get('cache-control')).toBe('no-store')
      const text = await response.text()
      expect(JSON.parse(text)).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' })
      expect(text).not.toContain('secret-token')
      expect(logged.filter((entry) => entry.level >= 50)).toHaveLength(0)
      expect(logged.filter((entry) => entry.level === 40)).toHaveLength(1)
    })

    it('answers a page with a 503 page', async () => {
      const response = await appThrowing(failedQuery(), '/blog').request()
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      const html = await response.text()
      expect(html).toContain(DATABASE_UNAVAILABLE_MESSAGE)
      expect(html).not.toContain('secret-token')
    })

    it('still answers other failures of the database (a bug, a constraint) with 500', async () => {
      const error = new Error('Failed query: insert ...', { cause: Object.assign(new Error('syntax error'), { code: '42601' }) })
      expect((await appThrowing(error, '/api/blog').request()).status).toBe(500)
    })
  })
})
