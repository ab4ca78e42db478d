import { and, asc, eq, sql } from 'drizzle-orm'
import type { RowOutcome } from '#common/workflow-interpreter.ts'
import { checkRows } from '#common/data-rows.ts'
import { FINISHED_STATUSES, MAX_CLIENT_SCREENSHOTS, MAX_EXTRACTED_ROWS, MAX_LOG_LINES } from '#common/automations.ts'
import type { Caller } from '#common/auth.ts'
import { NotFound, ValidationError } from '#common/errors.ts'
import { MAX_RUN_STEPS, MAX_RUN_STORED_BYTES, stepShotName, type RunStep } from '#common/run-steps.ts'
import type { Db, DbOrTx, Tx } from '#server/db/client.ts'
import { automationRuns, automations, type RunLogLine, type RunScreenshot } from '#server/db/schema/index.ts'
import { runnerFacts, whyNotClaimed } from './runner-approval-check.ts'

type Run = typeof automationRuns.$inferSelect

/** Queued runs one claim may refuse before it answers (the rest are looked at by the next claims). */
const MAX_REFUSED_PER_CLAIM = 20

const line = (level: RunLogLine['level'], message: string): RunLogLine => ({ at: new Date().toISOString(), level, message })

/**
 * What a client (the extension, a local runner) reports on a run it executes: progress, how it
 * ended, and the screenshots it took. Only the member who started the run reports on it, only
 * while it runs. Part of the run service (run.service.ts), which passes its announce and webhooks.
 */
export function createClientReports(deps: { db: Db; announce: (run: Run) => void; finishedIn: (tx: DbOrTx, run: Run) => Promise<void> }) {
  const { db, announce, finishedIn } = deps

  /** The caller's own client run that has not finished, locked for a report; refusals say why not. */
  async function clientRunIn(tx: Tx, id: string, caller: Caller): Promise<Run> {
    const [run] = await tx.select().from(automationRuns).where(eq(automationRuns.id, id)).for('update')
    if (!run || run.workspaceId !== caller.workspace.id || run.userId !== caller.id) throw new NotFound('Run not found')
    if (run.runner !== 'client') throw new ValidationError('This run executes in the cloud; only the cloud worker reports on it.')
    if (FINISHED_STATUSES.includes(run.status))
      throw new ValidationError(`This run has already ${run.status === 'cancelled' ? 'been cancelled' : 'finished'}.`)
    return run
  }

  /** Counts an image's bytes in the run's files, or refuses it when they would pass MAX_RUN_STORED_BYTES. */
  function storedWith(run: Run, bytes: number): number {
    if (run.storedBytes + bytes > MAX_RUN_STORED_BYTES)
      throw new ValidationError(`This run's files reached their limit of ${MAX_RUN_STORED_BYTES / 1024 / 1024} MB.`)
    return run.storedBytes + bytes
  }

  return {
    /**
     * A local runner takes the oldest run queued for it (a scheduled run meant for that device),
     * which is running from then on; null when none waits. Each run goes to one claim. A queued run
     * the runner may not run (docs/decisions/032, amended: its automation no longer runs there,
     * or its owner has not approved the version it was queued from) is failed with the reason
     * instead, and the next one is looked at.
     */
    async claimForDevice(deviceId: string): Promise<Run | null> {
      const refused: Run[] = []
      const claimed = await db.transaction(async (tx) => {
        const runner = await runnerFacts(tx, deviceId)
        if (!runner || runner.revoked) return null
        for (let looked = 0; looked < MAX_REFUSED_PER_CLAIM; looked++) {
          const [next] = await tx
            .select()
            .from(automationRuns)
            .where(and(eq(automationRuns.deviceId, deviceId), eq(automationRuns.status, 'queued'), eq(automationRuns.runner, 'client')))
            .orderBy(asc(automationRuns.createdAt), asc(automationRuns.id))
            .limit(1)
            .for('update', { skipLocked: true })
          if (!next) return null
          const [automation] = next.automationId
            ? await tx
                .select({
                  name: automations.name,
                  version: automations.version,
                  deviceId: automations.deviceId,
                  deviceApprovedVersion: automations.deviceApprovedVersion,
                })
                .from(automations)
                .where(eq(automations.id, next.automationId))
            : []
          const refusal = whyNotClaimed(runner, automation ?? null, next)
          const now = new Date()
          if (refusal) {
            const [row] = await tx
              .update(automationRuns)
              .set({
                status: 'failed',
                error: refusal,
                finishedAt: now,
                updatedAt: now,
                log: sql`${automationRuns.log} || ${JSON.stringify([line('error', `Not run on this runner: ${refusal}`)])}::jsonb`,
              })
              .where(eq(automationRuns.id, next.id))
              .returning()
            if (row) {
              await finishedIn(tx, row)
              refused.push(row)
            }
            continue
          }
          const [row] = await tx
            .update(automationRuns)
            .set({
              status: 'running',
              startedAt: now,
              updatedAt: now,
              log: sql`${automationRuns.log} || ${JSON.stringify([line('info', 'The local runner took it up.')])}::jsonb`,
            })
            .where(eq(automationRuns.id, next.id))
            .returning()
          return row ?? null
        }
        return null
      })
      for (const run of refused) announce(run)
      if (claimed) announce(claimed)
      return claimed
    },

    /** A client's report on a run it executes: actions so far, log lines, extracted rows. */
    async report(
      id: string,
      caller: Caller,
      report: {
        actionsPerformed?: number
        log?: { level: RunLogLine['level']; message: string }[]
        extracted?: Record<string, string | null>[]
        steps?: RunStep[]
      },
      finish?: { status: 'succeeded' | 'failed' | 'cancelled'; error?: string; rowOutcomes?: RowOutcome[]; dataRows?: unknown[] },
    ): Promise<Run> {
      const updated = await db.transaction(async (tx) => {
        const run = await clientRunIn(tx, id, caller)
        // Rows the runner read from a file (a readData step), when the run started with none.
        const readRows = finish?.dataRows && run.dataRows.length === 0 ? checkRows(finish.dataRows) : null
        const at = new Date().toISOString()
        const log = [...run.log, ...(report.log ?? []).map((entry) => ({ at, ...entry }))]
        if (finish?.error) log.push(line('error', finish.error))
        const [row] = await tx
          .update(automationRuns)
          .set({
            actionsPerformed: Math.max(run.actionsPerformed, report.actionsPerformed ?? 0),
            log: log.slice(-MAX_LOG_LINES),
            extracted: [...run.extracted, ...(report.extracted ?? [])].slice(0, MAX_EXTRACTED_ROWS),
            ...(report.steps?.length ? { timeline: [...run.timeline, ...report.steps].slice(0, MAX_RUN_STEPS) } : {}),
            ...(finish ? { status: finish.status, error: finish.error ?? null, finishedAt: new Date() } : {}),
            ...(readRows ? { dataRows: readRows } : {}),
            ...(finish?.rowOutcomes
              ? { rowOutcomes: finish.rowOutcomes.filter((outcome) => outcome.row <= (readRows ?? run.dataRows).length) }
              : {}),
            updatedAt: new Date(),
          })
          .where(eq(automationRuns.id, id))
          .returning()
        if (!row) throw new NotFound('Run not found')
        if (finish) await finishedIn(tx, row)
        return row
      })
      announce(updated)
      return updated
    },

    /**
     * A screenshot a client took during a run it executes (docs/decisions/031): `store` writes the
     * image under the file name given, then the run lists it like a cloud run's screenshots.
     */
    async addClientScreenshot(
      id: string,
      caller: Caller,
      shot: { step: number; name?: string; bytes: number },
      store: (file: string) => Promise<void>,
    ): Promise<RunScreenshot> {
      const [added, run] = await db.transaction(async (tx) => {
        const run = await clientRunIn(tx, id, caller)
        if (run.screenshots.length >= MAX_CLIENT_SCREENSHOTS) {
          throw new ValidationError(`A run keeps at most ${MAX_CLIENT_SCREENSHOTS} screenshots.`)
        }
        const storedBytes = storedWith(run, shot.bytes)
        const added: RunScreenshot = {
          name: shot.name || `Step ${shot.step}`,
          file: `step-${shot.step}-${run.screenshots.length + 1}.png`,
          step: shot.step,
        }
        await store(added.file)
        const [row] = await tx
          .update(automationRuns)
          .set({ screenshots: [...run.screenshots, added], storedBytes, updatedAt: new Date() })
          .where(eq(automationRuns.id, id))
          .returning()
        if (!row) throw new NotFound('Run not found')
        return [added, row] as const
      })
      announce(run)
      return added
    },

    /**
     * The picture a client took after a step (docs/decisions/057), stored as after-<shot>.jpg:
     * the run's timeline entries name it. Counted in the run's files; the file name is answered.
     */
    async addClientStepPicture(
      id: string,
      caller: Caller,
      picture: { shot: number; bytes: number },
      store: (file: string) => Promise<void>,
    ): Promise<string> {
      const file = stepShotName(picture.shot)
      await db.transaction(async (tx) => {
        const run = await clientRunIn(tx, id, caller)
        const storedBytes = storedWith(run, picture.bytes)
        await store(file)
        await tx.update(automationRuns).set({ storedBytes, updatedAt: new Date() }).where(eq(automationRuns.id, id))
      })
      return file
    },
  }
}
