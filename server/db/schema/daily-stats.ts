import { date, integer, numeric, pgTable, timestamp } from 'drizzle-orm/pg-core'

/**
 * The business's figures of one finished UTC day, rolled up from the other tables by the daily
 * roll-up (server/features/overview/daily-rollup.ts, docs/decisions/063) so that the admin's
 * overview reads 30 rows instead of counting millions of runs.
 */
export const dailyStats = pgTable('daily_stats', {
  day: date({ mode: 'string' }).primaryKey(),
  signUps: integer().notNull(),
  /** Runs that ended that day, by outcome. */
  runsSucceeded: integer().notNull(),
  runsFailed: integer().notNull(),
  runsCancelled: integer().notNull(),
  /** Credits taken for runs and model calls, and given back for runs that failed on our side. */
  creditsSpent: integer().notNull(),
  creditsRefunded: integer().notNull(),
  /** Calls to the AI model (planning, self-repair) and the credits they cost. */
  modelCalls: integer().notNull(),
  modelCredits: integer().notNull(),
  trialsStarted: integer().notNull(),
  trialsConverted: integer().notNull(),
  trialsExpired: integer().notNull(),
  /** Paid subscriptions that ended (an expired trial is counted as such, not here). */
  cancellations: integer().notNull(),
  /** Payments received, in US dollars. */
  revenue: numeric({ precision: 14, scale: 2, mode: 'number' }).notNull(),
  /**
   * Monthly recurring revenue and paying subscriptions as the roll-up saw them just after the day
   * ended; null for a day rolled up later (the past cannot be read back from today's rows).
   */
  mrr: numeric({ precision: 14, scale: 2, mode: 'number' }),
  payingSubscriptions: integer(),
  rolledUpAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
