import { and, eq, lt, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import {
  automationRuns,
  cloudQueueTurns,
  subscriptionPlans,
  workspaces,
  type RunFile,
  type RunLogLine,
  type RunRepair,
  type RunScreenshot,
} from '#server/db/schema/index.ts'
import type { EventBus } from '#server/features/events/event-bus.ts'
import { MAX_EXTRACTED_ROWS, MAX_LOG_LINES } from '#common/automations.ts'
import { MAX_RUN_STEPS, type RunStep } from '#common/run-steps.ts'
import type { RunTrace } from '#common/run-trace.ts'
import type { DataRow, RowOutcome } from '#common/workflow-interpreter.ts'
import { nextTurn, queuedInCloud, queueOrder, turnStride } from './cloud-queue.ts'
import type { Run, RunService } from './run.service.ts'
import { endStaleClientRuns } from './stale-client-runs.ts'

/** A run whose worker stopped is tried this many times in all, then failed and refunded. */
const MAX_ATTEMPTS = 2

export interface RunProgress {
  actionsPerformed: number
  log?: RunLogLine[]
  extracted?: Record<string, string | null>[]
  screenshots?: RunScreenshot[]
  /** Steps carried out with another way of finding their element (docs/decisions/019). */
  repairs?: RunRepair[]
  /**
   * This attempt starts over: drop the screenshots and extracted rows an earlier attempt of the
   * run stored (a run queued again after its worker stopped). The log is kept.
   */
  restart?: boolean
  /** Each data row's outcome (docs/decisions/046): sent with the run's outcome. */
  rowOutcomes?: RowOutcome[]
  /** Data rows a readData step read on the member's machine (a client run): stored when the run had none. */
  dataRows?: DataRow[]
  /** Files the run kept (downloads, saved tables). */
  files?: RunFile[]
  /** Where a failed run stopped (its step and page), for "Resume". */
  stoppedAt?: { step: number; url: string | null } | null
  /** Steps as they were carried out (docs/decisions/057). */
  timeline?: RunStep[]
  /** What the run's files take on disk so far. */
  storedBytes?: number
  /** What became of the run's trace (docs/decisions/060): sent with the outcome. */
  trace?: RunTrace
}

export type RunOutcome =
  | { status: 'succeeded' }
  /** `ourFault`: the failure was the platform's (browser did not start, internal error): refunded. */
  | { status: 'failed'; error: string; ourFault: boolean }

/**
 * The cloud queue: queued cloud runs are rows of automation_runs. A worker claims the next one, the
 * workspaces taking turns (each claim goes to exactly one worker, across processes), holds it
 * with a lease it renews, and reports progress and the outcome under that lease.
 */
export function createRunQueue(deps: { db: Db; runs: RunService; events: EventBus; leaseMs: number }) {
  const { db, runs, events, leaseMs } = deps
  const leaseFromNow = () => new Date(Date.now() + leaseMs)
  const announce = (run: Run) =>
    events.publish('run', { id: run.id, workspaceId: run.workspaceId, status: run.status, automationId: run.automationId })
  const held = (id: string, workerId: string) =>
    and(eq(automationRuns.id, id), eq(automationRuns.workerId, workerId), eq(automationRuns.status, 'running'))

  return {
    /**
     * Takes the next queued cloud run, or null when there is none: workspaces take turns, weighted
     * by their plan (docs/decisions/038), each workspace's runs oldest first, and a workspace at
     * its plan's cloud concurrency (docs/decisions/029) is passed over without holding up others.
     */
    async claim(workerId: string): Promise<Run | null> {
      const claimed = await db.transaction(async (tx) => {
        // Claims take turns, across processes: the count of a workspace's running runs below is
        // only true while no other claim can add one, and the queue's turns and clock are only
        // moved by one claim at a time. Row locks cannot give that (the runs that would be added
        // are other rows), and locking the workspace row would queue claims behind run starts,
        // which hold it. The lock is held until the claim commits, so the next claim's statements
        // see its run as running and its turn taken; a claim is a few short statements.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('aether:cloud-run-claim'))`)
        const busy = tx.$with('busy').as(
          tx
            .select({ workspaceId: automationRuns.workspaceId, running: sql<number>`count(*)::int`.as('running') })
            .from(automationRuns)
            .where(and(eq(automationRuns.status, 'running'), eq(automationRuns.runner, 'cloud')))
            .groupBy(automationRuns.workspaceId),
        )
        // SKIP LOCKED still matters: a queued run may be held by a cancel or by recoverExpired.
        const [next] = await tx
          .with(busy)
          .select({ id: automationRuns.id, workspaceId: automationRuns.workspaceId, turn: nextTurn, stride: turnStride })
          .from(automationRuns)
          .innerJoin(workspaces, eq(workspaces.id, automationRuns.workspaceId))
          .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
          .leftJoin(busy, eq(busy.workspaceId, automationRuns.workspaceId))
          .leftJoin(cloudQueueTurns, eq(cloudQueueTurns.workspaceId, automationRuns.workspaceId))
          .where(and(queuedInCloud, sql`coalesce(${busy.running}, 0) < ${subscriptionPlans.cloudConcurrency}`))
          .orderBy(nextTurn, ...queueOrder)
          .limit(1)
          .for('update', { of: automationRuns, skipLocked: true })
        if (!next) return null
        // The workspace's turn is taken: its next one is a stride on, and the clock is where this one started.
        const turn = { lastStart: Number(next.turn), nextStart: Number(next.turn) + Number(next.stride) }
        await tx
          .insert(cloudQueueTurns)
          .values({ workspaceId: next.workspaceId, ...turn })
          .onConflictDoUpdate({ target: cloudQueueTurns.workspaceId, set: turn })
        const now = new Date()
        const [row] = await tx
          .update(automationRuns)
          .set({
            status: 'running',
            workerId,
            leaseUntil: leaseFromNow(),
            startedAt: sql`coalesce(${automationRuns.startedAt}, ${now})`,
            attempts: sql`${automationRuns.attempts} + 1`,
            updatedAt: now,
          })
          .where(eq(automationRuns.id, next.id))
          .returning()
        return row ?? null
      })
      if (claimed) announce(claimed)
      return claimed
    },

    /**
     * Renews the lease and stores progress. False when the run is no longer this worker's to run
     * (cancelled by the member, or taken back after the lease ran out): the worker stops.
     */
    async progress(id: string, workerId: string, progress: RunProgress): Promise<boolean> {
      const row = await db.transaction(async (tx) => {
        const [run] = await tx.select().from(automationRuns).where(held(id, workerId)).for('update')
        if (!run) return null
        const [updated] = await tx
          .update(automationRuns)
          .set({
            leaseUntil: leaseFromNow(),
            actionsPerformed: progress.actionsPerformed,
            log: [...run.log, ...(progress.log ?? [])].slice(-MAX_LOG_LINES),
            extracted: [...(progress.restart ? [] : run.extracted), ...(progress.extracted ?? [])].slice(0, MAX_EXTRACTED_ROWS),
            screenshots: [...(progress.restart ? [] : run.screenshots), ...(progress.screenshots ?? [])],
            repairs: [...(progress.restart ? [] : run.repairs), ...(progress.repairs ?? [])],
            files: [...(progress.restart ? [] : run.files), ...(progress.files ?? [])],
            timeline: [...(progress.restart ? [] : run.timeline), ...(progress.timeline ?? [])].slice(0, MAX_RUN_STEPS),
            ...(progress.storedBytes !== undefined ? { storedBytes: Math.max(run.storedBytes, progress.storedBytes) } : {}),
            ...(progress.rowOutcomes ? { rowOutcomes: progress.rowOutcomes.slice(0, run.dataRows.length) } : {}),
            ...(progress.stoppedAt ? { stoppedAt: progress.stoppedAt } : {}),
            ...(progress.trace ? { trace: progress.trace } : {}),
            updatedAt: new Date(),
          })
          .where(eq(automationRuns.id, id))
          .returning()
        return updated ?? null
      })
      if (row) announce(row)
      return Boolean(row)
    },

    /**
     * Gives a run this worker holds back to the queue, for another worker (this server is shutting
     * down). The attempt does not count towards MAX_ATTEMPTS. False when the run was not held.
     */
    async release(id: string, workerId: string, why: string): Promise<boolean> {
      const note: RunLogLine = { at: new Date().toISOString(), level: 'warn', message: `${why} It is queued again.` }
      const [row] = await db
        .update(automationRuns)
        .set({
          status: 'queued',
          workerId: null,
          leaseUntil: null,
          attempts: sql`greatest(${automationRuns.attempts} - 1, 0)`,
          log: sql`${automationRuns.log} || ${JSON.stringify([note])}::jsonb`,
          updatedAt: new Date(),
        })
        .where(held(id, workerId))
        .returning()
      if (row) announce(row)
      return Boolean(row)
    },

    /** Ends a run this worker holds; a failure of ours gives the credit back. */
    async finish(id: string, workerId: string, outcome: RunOutcome, progress?: RunProgress): Promise<Run | null> {
      if (progress) await this.progress(id, workerId, progress)
      const row = await db.transaction(async (tx) => {
        const [finished] = await tx
          .update(automationRuns)
          .set({
            status: outcome.status,
            error: outcome.status === 'failed' ? outcome.error : null,
            finishedAt: new Date(),
            leaseUntil: null,
            updatedAt: new Date(),
          })
          .where(held(id, workerId))
          .returning()
        if (!finished) return null
        if (outcome.status === 'failed' && outcome.ourFault) await runs.refundIn(tx, finished, outcome.error)
        else await runs.refundRowsNotRunIn(tx, finished)
        // Read again: the refund is part of what the webhook tells.
        const [final] = await tx.select().from(automationRuns).where(eq(automationRuns.id, id))
        await runs.finishedIn(tx, final ?? finished)
        return final ?? finished
      })
      if (!row) return null
      announce(row)
      return row
    },

    /**
     * Runs whose worker stopped renewing its lease (a crash, a killed process): queued again, or
     * after MAX_ATTEMPTS failed and refunded. Any worker may call this; each row is handled once.
     */
    /** Ends the client runs their device left behind (stale-client-runs.ts); how many. */
    endStaleClientRuns: (now?: Date) => endStaleClientRuns({ db, runs, announce }, now),

    async recoverExpired(): Promise<number> {
      const expired = await db.transaction(async (tx) => {
        const rows = await tx
          .select()
          .from(automationRuns)
          .where(and(eq(automationRuns.status, 'running'), eq(automationRuns.runner, 'cloud'), lt(automationRuns.leaseUntil, new Date())))
          .for('update', { skipLocked: true })
        for (const run of rows) {
          const retry = run.attempts < MAX_ATTEMPTS
          const note: RunLogLine = {
            at: new Date().toISOString(),
            level: 'warn',
            message: retry
              ? 'The worker running this stopped; it is queued again.'
              : 'The worker running this stopped again; the run failed and its credit was refunded.',
          }
          const [updated] = await tx
            .update(automationRuns)
            .set({
              status: retry ? 'queued' : 'failed',
              workerId: null,
              leaseUntil: null,
              error: retry ? null : 'The cloud worker stopped while running this automation.',
              finishedAt: retry ? null : new Date(),
              log: sql`${automationRuns.log} || ${JSON.stringify([note])}::jsonb`,
              updatedAt: new Date(),
            })
            .where(eq(automationRuns.id, run.id))
            .returning()
          if (!retry && updated) await runs.finishedIn(tx, updated)
        }
        return rows
      })
      for (const run of expired) {
        if (run.attempts >= MAX_ATTEMPTS) await runs.refund(run.id, 'the cloud worker stopped')
        announce({ ...run, status: run.attempts < MAX_ATTEMPTS ? 'queued' : 'failed' })
      }
      return expired.length
    },
  }
}

export type RunQueue = ReturnType<typeof createRunQueue>
