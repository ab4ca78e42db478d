import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RateLimited } from '#common/errors.ts'
import type { Database } from '#server/db/client.ts'
import { rateLimits } from '#server/db/schema/index.ts'
import { openTestDatabase } from '#server/testing/test-database.ts'
import { createRateLimitService, type RateLimitRule, type RateLimitService } from './rate-limit.service.ts'

let database: Database
let service: RateLimitService
let keySeq = 0
const freshKey = () => `test:${++keySeq}:${Math.random().toString(36).slice(2)}`
const rule = (limit: number, windowSeconds = 60, message = `limit ${limit} reached`): RateLimitRule => ({ limit, windowSeconds, message })

beforeAll(async () => {
  database = await openTestDatabase()
  service = createRateLimitService(database.db)
})
afterAll(async () => {
  await database.close()
})

/** Moves a counter's window into the past, as if that many seconds had gone by. */
async function age(key: string, seconds: number) {
  await database.db
    .update(rateLimits)
    .set({ windowStart: sql`now() - ${sql.raw(`interval '${seconds} seconds'`)}` })
    .where(eq(rateLimits.key, key))
}

async function row(key: string) {
  const [found] = await database.db.select().from(rateLimits).where(eq(rateLimits.key, key))
  return found
}

async function rejection(promise: Promise<unknown>): Promise<RateLimited> {
  try {
    await promise
  } catch (error) {
    if (error instanceof RateLimited) return error
    throw error
  }
  throw new Error('expected a RateLimited error')
}

describe('hit', () => {
  it('counts every call within the window and reports what remains', async () => {
    const key = freshKey()
    const first = await service.hit(key, rule(3))
    expect(first).toMatchObject({ count: 1, limit: 3, remaining: 2 })
    expect(first.resetSeconds).toBeGreaterThan(55)
    expect(first.resetSeconds).toBeLessThanOrEqual(60)
    expect((await service.hit(key, rule(3))).count).toBe(2)
    expect((await service.hit(key, rule(3))).remaining).toBe(0)
    const over = await service.hit(key, rule(3))
    expect(over.count).toBe(4)
    expect(over.remaining).toBe(0)
    expect((await row(key))?.count).toBe(4)
  })

  it('keeps separate counters per key', async () => {
    const a = freshKey()
    const b = freshKey()
    await service.hit(a, rule(5))
    await service.hit(a, rule(5))
    expect((await service.hit(b, rule(5))).count).toBe(1)
  })

  it('reports the seconds left in the current window', async () => {
    const key = freshKey()
    await service.hit(key, rule(5, 60))
    await age(key, 50)
    const result = await service.hit(key, rule(5, 60))
    expect(result.count).toBe(2)
    expect(result.resetSeconds).toBeGreaterThanOrEqual(9)
    expect(result.resetSeconds).toBeLessThanOrEqual(11)
  })

  it('starts a new window once the old one has passed', async () => {
    const key = freshKey()
    for (let i = 0; i < 5; i++) await service.hit(key, rule(2, 60))
    await age(key, 61)
    const result = await service.hit(key, rule(2, 60))
    expect(result.count).toBe(1)
    expect(result.remaining).toBe(1)
    expect(result.resetSeconds).toBeGreaterThan(55)
    const stored = await row(key)
    expect(Date.now() - (stored?.windowStart.getTime() ?? 0)).toBeLessThan(10_000)
  })

  it('counts concurrent hits exactly (one atomic upsert each)', async () => {
    const key = freshKey()
    const results = await Promise.all(Array.from({ length: 20 }, () => service.hit(key, rule(100))))
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect((await row(key))?.count).toBe(20)
  })
})

describe('consume', () => {
  it('allows the limit and refuses the next call with the rule message and a retry time', async () => {
    const key = freshKey()
    for (let i = 1; i <= 3; i++) expect((await service.consume(key, rule(3, 600))).count).toBe(i)
    const error = await rejection(service.consume(key, rule(3, 600)))
    expect(error.status).toBe(429)
    expect(error.message).toBe('limit 3 reached')
    expect(error.retryAfterSeconds).toBeGreaterThan(590)
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(600)
  })

  it('allows calls again after the window', async () => {
    const key = freshKey()
    await service.consume(key, rule(1, 60))
    await rejection(service.consume(key, rule(1, 60)))
    await age(key, 60)
    await expect(service.consume(key, rule(1, 60))).resolves.toMatchObject({ count: 1 })
  })
})

describe('assertBelow', () => {
  it('does not count', async () => {
    const key = freshKey()
    await service.assertBelow(key, rule(1))
    await service.assertBelow(key, rule(1))
    expect(await row(key)).toBeUndefined()
  })

  it('throws once the counter has reached the limit', async () => {
    const key = freshKey()
    await service.hit(key, rule(2, 900))
    await service.assertBelow(key, rule(2, 900))
    await service.hit(key, rule(2, 900))
    const error = await rejection(service.assertBelow(key, rule(2, 900)))
    expect(error.message).toBe('limit 2 reached')
    expect(error.retryAfterSeconds).toBeGreaterThan(890)
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(900)
  })

  it('ignores a counter whose window has passed', async () => {
    const key = freshKey()
    await service.hit(key, rule(1, 60))
    await rejection(service.assertBelow(key, rule(1, 60)))
    await age(key, 61)
    await expect(service.assertBelow(key, rule(1, 60))).resolves.toBeUndefined()
  })
})

describe('assertAllBelow', () => {
  it('checks several counters in one query, refuses with the first over its limit, and names the open windows', async () => {
    const [quiet, busy, full, old] = [freshKey(), freshKey(), freshKey(), freshKey()]
    await service.hit(busy, rule(3, 900))
    for (let i = 0; i < 2; i++) await service.hit(full, rule(2, 900, 'full'))
    await service.hit(old, rule(1, 60))
    await age(old, 61)
    const open = await service.assertAllBelow([
      [quiet, rule(3, 900)],
      [busy, rule(3, 900)],
      [old, rule(1, 60)],
    ])
    expect([...open]).toEqual([busy])
    const error = await rejection(
      service.assertAllBelow([
        [busy, rule(3, 900)],
        [full, rule(2, 900, 'full')],
      ]),
    )
    expect(error.message).toBe('full')
    expect(error.retryAfterSeconds).toBeGreaterThan(890)
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(900)
    // The order decides which refusal a caller gets.
    const first = await rejection(
      service.assertAllBelow([
        [busy, rule(1, 900, 'busy first')],
        [full, rule(2, 900, 'full')],
      ]),
    )
    expect(first.message).toBe('busy first')
    expect(await row(quiet)).toBeUndefined()
  })
})

describe('reset and prune', () => {
  it('reset removes one counter only', async () => {
    const a = freshKey()
    const b = freshKey()
    await service.hit(a, rule(5))
    await service.hit(b, rule(5))
    await service.reset(a)
    expect(await row(a)).toBeUndefined()
    expect(await row(b)).toBeDefined()
    expect((await service.hit(a, rule(5))).count).toBe(1)
  })

  it('prune deletes counters whose window started long ago and keeps recent ones', async () => {
    const old = freshKey()
    const recent = freshKey()
    const borderline = freshKey()
    await service.hit(old, rule(5))
    await service.hit(recent, rule(5))
    await service.hit(borderline, rule(5))
    await age(old, 2 * 86_400)
    await age(borderline, 86_400 - 60)
    await service.prune()
    expect(await row(old)).toBeUndefined()
    expect(await row(recent)).toBeDefined()
    expect(await row(borderline)).toBeDefined()
  })

  it('prune takes a custom age', async () => {
    const key = freshKey()
    await service.hit(key, rule(5))
    await age(key, 120)
    await service.prune(3600)
    expect(await row(key)).toBeDefined()
    await service.prune(60)
    expect(await row(key)).toBeUndefined()
  })
})

describe('the counter every request passes', () => {
  it('is the shared table on a shared database, and memory when only this process uses it', async () => {
    const rows = (key: string) => database.db.select().from(rateLimits).where(eq(rateLimits.key, key))
    const shared = freshKey()
    expect((await service.hitEveryRequest(shared, rule(3))).remaining).toBe(2)
    expect((await service.hitEveryRequest(shared, rule(3))).remaining).toBe(1)
    expect(await rows(shared)).toHaveLength(1)

    const alone = createRateLimitService(database.db, { sharedDatabase: false })
    const key = freshKey()
    expect(await alone.hitEveryRequest(key, rule(2))).toMatchObject({ count: 1, remaining: 1, resetSeconds: 60 })
    expect(await alone.hitEveryRequest(key, rule(2))).toMatchObject({ count: 2, remaining: 0 })
    expect((await alone.hitEveryRequest(key, rule(2))).count).toBe(3)
    expect(await rows(key)).toHaveLength(0)
  })
})
