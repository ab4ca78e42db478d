import { and, asc, gte, lte, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { dailyStats } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'
import { figuresBetween, type DayFigures } from './day-figures.ts'
import { recurringRevenue } from './business-now.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** How far back the roll-up fills days it has not rolled up yet (a new install, or one that was down). */
export const ROLLUP_DAYS = 90
/** The latest days are rolled up again on every pass: a client run or a webhook can report late. */
const RECOUNTED_DAYS = 2
const PASS_EVERY_MS = 60 * 60 * 1000

export type DailyStatsRow = typeof dailyStats.$inferSelect

/** The UTC day a moment falls in, as YYYY-MM-DD. */
export const dayOf = (moment: Date) => moment.toISOString().slice(0, 10)
/** The start of a UTC day. */
export const startOf = (day: string) => new Date(`${day}T00:00:00.000Z`)
/** The day `days` after (or before) another. */
export const dayAfter = (day: string, days = 1) => dayOf(new Date(startOf(day).getTime() + days * DAY_MS))

/**
 * The daily roll-up (docs/decisions/063): each finished UTC day's figures are counted once into
 * daily_stats, so the overview reads a row a day. Every pass fills the days of the last 90 it has
 * not rolled up, counts the last two again, and notes monthly recurring revenue for the day just
 * ended (the only moment it can be read). Passes are idempotent: processes may run them together.
 */
export function createDailyRollup(deps: { db: Db; logger: Logger }) {
  const { db, logger } = deps

  async function rolledUpDays(from: string, to: string): Promise<Set<string>> {
    const rows = await db
      .select({ day: dailyStats.day })
      .from(dailyStats)
      .where(and(gte(dailyStats.day, from), lte(dailyStats.day, to)))
    return new Set(rows.map((row) => row.day))
  }

  async function rollUpDay(day: string, snapshot: { mrr: number; paying: number } | null) {
    const figures: DayFigures = await figuresBetween(db, startOf(day), startOf(dayAfter(day)))
    const row = { day, ...figures, mrr: snapshot?.mrr ?? null, payingSubscriptions: snapshot?.paying ?? null, rolledUpAt: new Date() }
    await db
      .insert(dailyStats)
      .values(row)
      .onConflictDoUpdate({
        target: dailyStats.day,
        // A day's revenue figures are kept from the pass that saw them just after it ended.
        set: {
          ...figures,
          mrr: sql`coalesce(${dailyStats.mrr}, excluded.mrr)`,
          payingSubscriptions: sql`coalesce(${dailyStats.payingSubscriptions}, excluded.paying_subscriptions)`,
          rolledUpAt: row.rolledUpAt,
        },
      })
  }

  /**
   * Rolls up the finished days among the last `days` that need it; answers how many it counted.
   * Monthly recurring revenue is noted for yesterday only: it is what is being paid for now.
   */
  async function rollUp(now = new Date(), days = ROLLUP_DAYS): Promise<number> {
    const yesterday = dayAfter(dayOf(now), -1)
    const first = dayAfter(yesterday, -(days - 1))
    const done = await rolledUpDays(first, yesterday)
    const recounted = dayAfter(yesterday, -(RECOUNTED_DAYS - 1))
    const due: string[] = []
    for (let day = first; day <= yesterday; day = dayAfter(day)) {
      if (!done.has(day) || day >= recounted) due.push(day)
    }
    const snapshot = due.includes(yesterday) ? await recurringRevenue(db) : null
    for (const day of due) await rollUpDay(day, day === yesterday ? snapshot : null)
    return due.length
  }

  return {
    rollUp,
    /** The rolled-up rows from `from` to `to`, oldest first. */
    async rows(from: string, to: string): Promise<DailyStatsRow[]> {
      return db
        .select()
        .from(dailyStats)
        .where(and(gte(dailyStats.day, from), lte(dailyStats.day, to)))
        .orderBy(asc(dailyStats.day))
    },
    /** Rolls up now and every hour, in this process (the one that runs the cloud worker). */
    start() {
      const pass = () =>
        void rollUp()
          .then((count) => logger.debug({ days: count }, 'daily roll-up: days counted'))
          .catch((error: unknown) => logger.warn({ err: error }, 'daily roll-up: the pass failed; tried again in an hour'))
      pass()
      const timer = setInterval(pass, PASS_EVERY_MS)
      timer.unref()
      return { stop: () => clearInterval(timer) }
    },
  }
}

export type DailyRollup = ReturnType<typeof createDailyRollup>
