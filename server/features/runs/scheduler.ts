import { and, asc, eq, isNotNull, lte } from 'drizzle-orm'
import { nextRun } from '#common/schedules.ts'
import { AppError, ValidationError } from '#common/errors.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { automations, devices } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'
import type { Caller } from '#common/auth.ts'
import type { Automation } from '#server/features/automations/automation.service.ts'
import type { Run, RunService, StartOptions } from './run.service.ts'

/**
 * Who a scheduled run starts as: the automation's workspace runs it, in its creator's name (nobody's
 * once their account is gone). The schedule was set by someone who could change the automation.
 */
const scheduledCaller = (automation: Pick<Automation, 'ownerId' | 'workspaceId'>): Caller => ({
  id: automation.ownerId ?? '',
  email: 'the schedule',
  // Not a person asking: the run service reads the owner's own verification (unverified-allowance.ts).
  emailVerified: false,
  role: 'user',
  workspace: { id: automation.workspaceId, role: 'member' },
})

const TICK_MS = 15_000
/** The most automations one tick starts; the rest wait for the next tick. */
const MAX_PER_TICK = 500

export interface TickResult {
  started: number
  refused: number
}

/**
 * Fires scheduled automations. Each due automation (enabled, with a schedule, next_run_at passed)
 * is claimed with FOR UPDATE SKIP LOCKED in a transaction that also starts its cloud run and moves
 * next_run_at to the schedule's next time after now, in its time zone (docs/decisions/036):
 * whatever the number of server processes, a schedule fires once, and a server that was down fires a missed schedule once, not once per
 * missed time. A start the plan or balance refuses is recorded as a failed run (once per streak)
 * and the schedule moves on. docs/decisions/012-automations-credits-and-runs.md.
 */
export function createScheduler(deps: {
  db: Db
  runs: Pick<RunService, 'startIn' | 'recordRefusalIn' | 'announce'>
  logger: Logger
  /** What time it is: due schedules and their next times are counted from it (tests fake it across daylight-saving changes). */
  clock?: () => Date
}) {
  const { db, runs } = deps
  const clock = deps.clock ?? (() => new Date())
  const logger = deps.logger.child({ component: 'scheduler' })
  let timer: NodeJS.Timeout | null = null
  let ticking: Promise<TickResult> | null = null

  /**
   * In the cloud, or queued for the local runner the automation names: in that device's member's
   * name (the runner reports as them). A disconnected runner is refused like any other start.
   */
  async function whereItRuns(tx: Tx, due: Automation): Promise<{ caller: Caller; options: StartOptions }> {
    if (!due.deviceId) return { caller: scheduledCaller(due), options: { runner: 'cloud', trigger: 'schedule' } }
    const [device] = await tx.select().from(devices).where(eq(devices.id, due.deviceId))
    if (!device || device.revokedAt || device.workspaceId !== due.workspaceId) {
      throw new ValidationError(
        `The local runner${device ? ` “${device.name}”` : ''} this schedule runs on is no longer connected: choose another, or the cloud, in the automation.`,
      )
    }
    return {
      caller: { ...scheduledCaller(due), id: device.userId },
      options: { runner: 'client', trigger: 'schedule', device: { id: device.id, name: device.name } },
    }
  }

  /** Claims and fires one due automation; false when none is due. */
  async function fireOne(now: Date, result: TickResult): Promise<boolean> {
    let announced: Run | null = null
    const claimed = await db.transaction(async (tx) => {
      const [due] = await tx
        .select()
        .from(automations)
        .where(and(eq(automations.enabled, true), isNotNull(automations.schedule), lte(automations.nextRunAt, now)))
        .orderBy(asc(automations.nextRunAt), asc(automations.id))
        .limit(1)
        .for('update', { skipLocked: true })
      if (!due) return false
      try {
        const target = await whereItRuns(tx, due)
        // A savepoint: a refused start rolls back alone, and the schedule still moves on.
        announced = await tx.transaction((savepoint) => runs.startIn(savepoint, due.id, target.caller, target.options))
        result.started += 1
      } catch (error) {
        if (error instanceof AppError) {
          result.refused += 1
          announced = await runs.recordRefusalIn(tx, due, 'schedule', error.message)
          logger.info({ automationId: due.id, ownerId: due.ownerId, code: error.code }, `scheduled run refused: ${error.message}`)
        } else {
          // A bug must not make the schedule fire every tick: this time is skipped, loudly.
          logger.error({ err: error, automationId: due.id }, 'starting a scheduled run failed; this time is skipped')
        }
      }
      let next: Date | null = null
      try {
        next = due.schedule ? nextRun(due.schedule, now) : null
      } catch {
        logger.warn({ automationId: due.id, schedule: due.schedule }, 'an automation has a schedule that no longer parses; it stops firing')
      }
      await tx.update(automations).set({ nextRunAt: next }).where(eq(automations.id, due.id))
      return true
    })
    if (announced) runs.announce(announced)
    return claimed
  }

  async function tick(now = clock()): Promise<TickResult> {
    const result: TickResult = { started: 0, refused: 0 }
    for (let i = 0; i < MAX_PER_TICK; i++) {
      if (!(await fireOne(now, result))) break
    }
    if (result.started || result.refused) logger.info(result, 'scheduled automations fired')
    return result
  }

  return {
    tick,
    /** Ticks now and every `intervalMs`; a tick still running is not started again. */
    start(intervalMs = TICK_MS) {
      if (timer) return
      const run = () => {
        if (ticking) return
        ticking = tick()
          .catch((error: unknown) => {
            logger.warn({ err: error }, 'scheduler tick failed')
            return { started: 0, refused: 0 }
          })
          .finally(() => {
            ticking = null
          })
      }
      run()
      timer = setInterval(run, intervalMs)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = null
      await ticking
    },
  }
}
