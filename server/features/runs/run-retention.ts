import { and, asc, eq, gt, isNotNull, isNull, lt, notInArray, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { automationRuns, subscriptionPlans, workspaces } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'
import type { RunFiles } from './run-files.ts'

/** Runs whose files one sweep removes at most; a sweep goes on in batches until none is left. */
const BATCH = 100
/** How often the worker process sweeps. */
const SWEEP_EVERY_MS = 60 * 60 * 1000

/**
 * A run's files (screenshots, step pictures, kept files) are kept for as many days after it ends
 * as its workspace's plan says (docs/decisions/057); then they are removed from disk, and the run
 * keeps its log, extracted data and timeline without the pictures, with the day they went.
 */
export function createRunRetention(deps: { db: Db; runFiles: Pick<RunFiles, 'remove'>; logger: Logger }) {
  const { db, runFiles, logger } = deps

  /** The next runs whose files are due, oldest first (but those whose files could not be removed in this sweep). */
  function due(now: Date, skipped: string[]) {
    return db
      .select({ id: automationRuns.id, timeline: automationRuns.timeline, repairs: automationRuns.repairs })
      .from(automationRuns)
      .innerJoin(workspaces, eq(workspaces.id, automationRuns.workspaceId))
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
      .where(
        and(
          gt(automationRuns.storedBytes, 0),
          isNull(automationRuns.filesRemovedAt),
          isNotNull(subscriptionPlans.runFilesDays),
          lt(automationRuns.finishedAt, sql`${now.toISOString()}::timestamptz - make_interval(days => ${subscriptionPlans.runFilesDays})`),
          skipped.length ? notInArray(automationRuns.id, skipped) : undefined,
        ),
      )
      .orderBy(asc(automationRuns.finishedAt))
      .limit(BATCH)
  }

  /** Removes the files of every run that is due; answers how many runs lost theirs. */
  async function sweep(now = new Date()): Promise<number> {
    let removed = 0
    const skipped: string[] = []
    for (;;) {
      const runs = await due(now, skipped)
      for (const run of runs) {
        // The files go first: a run that still lists a missing file answers 404 for it until the next sweep.
        try {
          await runFiles.remove(run.id)
        } catch (error) {
          logger.warn({ err: error, runId: run.id }, 'run files: could not be removed; tried again at the next sweep')
          skipped.push(run.id)
          continue
        }
        await db
          .update(automationRuns)
          .set({
            screenshots: [],
            files: [],
            timeline: run.timeline.map((step) => ({ ...step, screenshot: null })),
            repairs: run.repairs.map(({ file: _file, ...repair }) => repair),
            storedBytes: 0,
            trace: null,
            filesRemovedAt: now,
          })
          .where(eq(automationRuns.id, run.id))
      }
      removed += runs.length - runs.filter((run) => skipped.includes(run.id)).length
      if (runs.length < BATCH) return removed
    }
  }

  return {
    sweep,
    /** Sweeps now and every hour, in this process (the one that runs the cloud worker). */
    start() {
      const run = () =>
        void sweep()
          .then((count) => {
            if (count > 0) logger.info({ runs: count }, 'run files removed after their plan’s retention')
          })
          .catch((error: unknown) => logger.warn({ err: error }, 'run files: the retention sweep failed'))
      run()
      const timer = setInterval(run, SWEEP_EVERY_MS)
      timer.unref()
      return { stop: () => clearInterval(timer) }
    },
  }
}

export type RunRetention = ReturnType<typeof createRunRetention>
