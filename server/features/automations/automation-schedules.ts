import { ValidationError, LimitReached } from '#common/errors.ts'
import { minimumIntervalMinutes, nextRun, zonedOf, type ScheduleInput, type ZonedSchedule } from '#common/schedules.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import type { Automation } from './automation.service.ts'

/** Two schedules fire alike (the database keeps a schedule's keys in its own order). */
export function sameSchedule(a: ZonedSchedule | null, b: ZonedSchedule | null): boolean {
  const text = (schedule: ZonedSchedule | null) => (schedule ? JSON.stringify(schedule, Object.keys(schedule).sort()) : 'null')
  return text(a) === text(b)
}

/** "every minute", "every 15 minutes", "every 2 hours": an interval in a refusal. */
function everyWords(minutes: number): string {
  if (minutes === 1) return 'every minute'
  if (minutes === 60) return 'every hour'
  if (minutes % 60 === 0) return `every ${minutes / 60} hours`
  return `every ${minutes} minutes`
}

/**
 * What the automation service does with a schedule it is sent (docs/decisions/036): settles it
 * with `enabled`, holds a new or changed one to the plan's shortest interval, and counts its next
 * run from the clock.
 */
export function createScheduleRules(deps: {
  plans?: Pick<PlanService, 'allowancesOf' | 'cheapestAllowingSchedulesEvery'>
  clock: () => Date
}) {
  const { plans, clock } = deps
  return {
    /**
     * The schedule and `enabled` a save leaves: a schedule sent replaces the one kept (`undefined`
     * keeps it), and its `paused` is `enabled` turned round, so the two may not disagree. Without
     * either, a schedule keeps its paused state, and a new one is not paused.
     */
    settle(
      schedule: ScheduleInput | null | undefined,
      enabled: boolean | undefined,
      current: Pick<Automation, 'schedule' | 'enabled'> | null,
    ): { schedule: ZonedSchedule | null; enabled: boolean } {
      const paused = schedule?.paused
      if (paused !== undefined && enabled !== undefined && enabled === paused) {
        const message = `enabled is ${enabled} but schedule.paused is ${paused}: send one of them (enabled is the opposite of paused).`
        throw new ValidationError(`enabled: ${message}`, [{ path: 'enabled', message }])
      }
      return {
        schedule: schedule === undefined ? (current?.schedule ?? null) : schedule && zonedOf(schedule),
        enabled: paused !== undefined ? !paused : (enabled ?? current?.enabled ?? true),
      }
    },

    /** A new or changed schedule may not run more often than the plan allows; schedules saved before keep firing. */
    async checkInterval(workspaceId: string, schedule: ZonedSchedule | null, before: ZonedSchedule | null): Promise<void> {
      if (!schedule || !plans || sameSchedule(schedule, before)) return
      const { plan, scheduleMinMinutes } = await plans.allowancesOf(workspaceId)
      const shortest = minimumIntervalMinutes(schedule, clock())
      if (scheduleMinMinutes === null || shortest === null || shortest >= scheduleMinMinutes) return
      const allowing = await plans.cheapestAllowingSchedulesEvery(shortest)
      const limit = `Schedules on the ${plan} plan run at most ${everyWords(scheduleMinMinutes)}; this one runs ${everyWords(shortest)}.`
      const message = allowing
        ? `${limit} The ${allowing.name} plan ${allowing.scheduleMinMinutes === null ? 'has no minimum interval' : `runs schedules ${everyWords(allowing.scheduleMinMinutes)}`}: choose a longer interval or upgrade.`
        : `${limit} No plan runs schedules that often: choose a longer interval.`
      throw new LimitReached(message, 'PLAN_LIMIT', [{ path: 'schedule', message }])
    },

    /** When a schedule that fires (not paused) next runs, from the clock's now. */
    nextRunAt(schedule: ZonedSchedule | null, enabled: boolean): Date | null {
      return schedule && enabled ? nextRun(schedule, clock()) : null
    },
  }
}
