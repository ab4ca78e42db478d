import { eq, inArray, lt, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { rateLimits } from '#server/db/schema/index.ts'
import { RateLimited } from '#common/errors.ts'
import { localWindows } from './local-windows.ts'

export interface RateLimitRule {
  limit: number
  windowSeconds: number
  message: string
}

export interface RateLimitResult {
  count: number
  limit: number
  remaining: number
  resetSeconds: number
}

/**
 * Fixed-window counters in PostgreSQL, so every server process shares them.
 * One upsert per check: it either opens a new window or increments the current one.
 * `sharedDatabase: false` (PGlite, which one process has to itself) keeps the counters every
 * request passes (`hitEveryRequest`) in memory instead.
 */
export function createRateLimitService(db: Db, options: { sharedDatabase: boolean } = { sharedDatabase: true }) {
  const local = options.sharedDatabase ? null : localWindows()
  /** One prepared statement per window length (every API request counts in one): no SQL built per request. */
  const hits = new Map<number, ReturnType<typeof prepareHit>>()
  function prepareHit(windowSeconds: number) {
    const window = sql.raw(`interval '${windowSeconds} seconds'`)
    const expired = sql`${rateLimits.windowStart} <= now() - ${window}`
    return db
      .insert(rateLimits)
      .values({ key: sql.placeholder('key'), count: 1, windowStart: sql`now()` })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
          windowStart: sql`case when ${expired} then now() else ${rateLimits.windowStart} end`,
        },
      })
      .returning({
        count: rateLimits.count,
        resetSeconds: sql<number>`greatest(1, ceil(extract(epoch from (${rateLimits.windowStart} + ${window} - now()))))::int`,
      })
      .prepare(`rate_limit_hit_${windowSeconds}`)
  }

  async function hit(key: string, rule: RateLimitRule): Promise<RateLimitResult> {
    const windowSeconds = Math.floor(rule.windowSeconds)
    let statement = hits.get(windowSeconds)
    if (!statement) hits.set(windowSeconds, (statement = prepareHit(windowSeconds)))
    const [row] = await statement.execute({ key })
    const count = row?.count ?? 1
    return {
      count,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - count),
      resetSeconds: row?.resetSeconds ?? rule.windowSeconds,
    }
  }

  /**
   * Checks counters without counting, in one query, in the order given: throws the first refusal
   * of a counter already at its limit. Returns the keys whose window is open (a count to reset).
   */
  async function assertAllBelow(checks: ReadonlyArray<readonly [key: string, rule: RateLimitRule]>): Promise<Set<string>> {
    const rows = await db
      .select({
        key: rateLimits.key,
        count: rateLimits.count,
        ageSeconds: sql<number>`extract(epoch from (now() - ${rateLimits.windowStart}))::float8`,
      })
      .from(rateLimits)
      .where(
        inArray(
          rateLimits.key,
          checks.map(([key]) => key),
        ),
      )
    const open = new Set<string>()
    for (const [key, rule] of checks) {
      const row = rows.find((candidate) => candidate.key === key)
      const windowSeconds = Math.floor(rule.windowSeconds)
      if (!row || row.ageSeconds >= windowSeconds) continue
      open.add(key)
      if (row.count >= rule.limit) throw new RateLimited(rule.message, Math.max(1, Math.ceil(windowSeconds - row.ageSeconds)), rule)
    }
    return open
  }

  return {
    hit,

    /**
     * Counts a hit of a limit that every request passes (the general API limit): in this process's
     * memory when no other process uses the database (a write per request was most of what the
     * embedded database did under load), in the shared table otherwise.
     */
    async hitEveryRequest(key: string, rule: RateLimitRule): Promise<RateLimitResult> {
      return local ? local.hit(key, rule) : hit(key, rule)
    },

    /** Counts one attempt and throws RateLimited once the window's limit is passed. */
    async consume(key: string, rule: RateLimitRule): Promise<RateLimitResult> {
      const result = await hit(key, rule)
      if (result.count > rule.limit) throw new RateLimited(rule.message, result.resetSeconds, rule)
      return result
    },

    /** Checks a counter without counting: throws when it is already over its limit. */
    async assertBelow(key: string, rule: RateLimitRule): Promise<void> {
      await assertAllBelow([[key, rule]])
    },

    assertAllBelow,

    async reset(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key))
    },

    /** Deletes counters whose window ended long ago (and forgets the ended ones kept in memory). */
    async prune(olderThanSeconds = 86_400): Promise<void> {
      local?.sweep()
      await db
        .delete(rateLimits)
        .where(lt(rateLimits.windowStart, sql`now() - ${sql.raw(`interval '${Math.floor(olderThanSeconds)} seconds'`)}`))
    },
  }
}

export type RateLimitService = ReturnType<typeof createRateLimitService>
