import type { Db } from '#server/db/client.ts'
import { cloudQueue, recentErrors, recurringRevenue, subscriptionsByPlan } from './business-now.ts'
import { dayAfter, dayOf, startOf, type DailyRollup, type DailyStatsRow } from './daily-rollup.ts'
import { figuresBetween, NO_FIGURES, type DayFigures } from './day-figures.ts'

/** The overview's window: the last 30 days, today so far included. */
export const WINDOW_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000
/**
 * How long one computed overview is answered again. Its figures are the business's, not a
 * member's, and the page says "As of": half a minute old is fresh enough, and a founder
 * reloading the page (or several admins at once) costs one computation, not one each.
 */
export const OVERVIEW_FRESH_MS = 30_000

export interface OverviewDay extends DayFigures {
  day: string
  /** Today, counted so far; the other days are rolled up. */
  today: boolean
}

/**
 * How the business is doing (issue 33, docs/decisions/063): monthly recurring revenue and its
 * change, subscriptions by plan, the last 30 days a day at a time (rolled-up rows, and today
 * counted live), the cloud queue now and what went wrong in the last 24 hours.
 */
export function createOverviewService(deps: { db: Db; rollup: DailyRollup; clock?: () => Date }) {
  const { db, rollup } = deps
  const clock = deps.clock ?? (() => new Date())

  /** The finished days of the window, rolled up first when some are missing (a new install, a pass not yet run). */
  async function finishedDays(today: string, now: Date): Promise<DailyStatsRow[]> {
    const first = dayAfter(today, -(WINDOW_DAYS - 1))
    const yesterday = dayAfter(today, -1)
    const rows = await rollup.rows(first, yesterday)
    if (rows.length === WINDOW_DAYS - 1) return rows
    await rollup.rollUp(now, WINDOW_DAYS - 1)
    return rollup.rows(first, yesterday)
  }

  async function compute(now: Date) {
    const today = dayOf(now)
    const [rows, todaySoFar, revenue, plans, queue, errors] = await Promise.all([
      finishedDays(today, now),
      figuresBetween(db, startOf(today), now),
      recurringRevenue(db),
      subscriptionsByPlan(db),
      cloudQueue(db, now),
      recentErrors(db, new Date(now.getTime() - DAY_MS)),
    ])
    const days: OverviewDay[] = [...rows.map(dayFrom), { ...todaySoFar, day: today, today: true }]
    // The change since the earliest day of the window whose revenue the roll-up noted.
    const earlier = rows.find((row) => row.mrr !== null)
    return {
      asOf: now.toISOString(),
      mrr: {
        amount: revenue.mrr,
        paying: revenue.paying,
        change: earlier ? { amount: round(revenue.mrr - (earlier.mrr ?? 0)), since: earlier.day } : null,
      },
      subscriptionsByPlan: plans,
      last30Days: sumOf(days),
      days,
      queue,
      errors: { since: new Date(now.getTime() - DAY_MS).toISOString(), ...errors },
    }
  }

  let kept: { at: number; overview: ReturnType<typeof compute> } | null = null

  return {
    /**
     * The overview as of `now`; without it, as of at most OVERVIEW_FRESH_MS ago (requests meanwhile
     * share one computation, and a failed one is not kept).
     */
    async overview(now?: Date) {
      if (now) return compute(now)
      const at = clock().getTime()
      if (!kept || at - kept.at >= OVERVIEW_FRESH_MS) {
        const overview = compute(new Date(at))
        kept = { at, overview }
        overview.catch(() => {
          if (kept?.overview === overview) kept = null
        })
      }
      return kept.overview
    },
  }
}

export type OverviewService = ReturnType<typeof createOverviewService>
export type Overview = Awaited<ReturnType<OverviewService['overview']>>

const KEYS = Object.keys(NO_FIGURES) as (keyof DayFigures)[]

function dayFrom(row: DailyStatsRow): OverviewDay {
  const { mrr: _mrr, payingSubscriptions: _paying, rolledUpAt: _rolledUpAt, ...figures } = row
  return { ...figures, today: false }
}

function sumOf(days: DayFigures[]): DayFigures {
  const sum = { ...NO_FIGURES }
  for (const day of days) for (const key of KEYS) sum[key] += day[key]
  sum.revenue = round(sum.revenue)
  return sum
}

const round = (amount: number) => Math.round(amount * 100) / 100
