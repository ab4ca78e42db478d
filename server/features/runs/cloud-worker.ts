import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { EventBus } from '#server/features/events/event-bus.ts'
import type { Logger } from '#server/logger.ts'
import type { Repairer } from '#server/features/planning/repairer.ts'
import type { VaultService } from '#server/features/vault/vault.service.ts'
import type { AutomationFileSource } from './run-file-steps.ts'
import type { RunFiles } from './run-files.ts'
import type { RunQueue } from './run-queue.ts'
import { createSharedBrowser, type SharedBrowser } from '#server/browser/shared-browser.ts'
import { createStepExecutor, type ExecutorConfig } from './step-executor.ts'
import type { Page } from 'playwright-core'
import type { LiveFeed } from './live-view.ts'
import type { PersonHelp } from './person-help.ts'

export interface CloudWorkerConfig extends ExecutorConfig {
  concurrency: number
  chromiumPath: string
  /** How often an idle worker looks for queued runs (it is also woken when one is queued). */
  pollMs?: number
  /** How often runs whose worker stopped are put back (any worker may do it). */
  recoverMs?: number
}

/** hostname:pid:random, unique per process start; stored on the runs it claims. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
}

/**
 * The cloud worker of one server process: claims queued cloud runs from the shared queue (up to
 * `concurrency` at once) and executes them in the shared browser. Several processes on one
 * PostgreSQL each run one; every run goes to exactly one of them (run-queue.ts).
 */
export function createCloudWorker(deps: {
  runQueue: Pick<RunQueue, 'claim' | 'progress' | 'finish' | 'release' | 'recoverExpired' | 'endStaleClientRuns'>
  runFiles: Pick<RunFiles, 'saveScreenshot' | 'screenshotName' | 'saveFile' | 'readFile' | 'saveTrace'>
  events: Pick<EventBus, 'subscribe'>
  logger: Logger
  config: CloudWorkerConfig
  workerId?: string
  /** The process's shared browser (services.browsers); without it the worker launches and closes its own. */
  browsers?: SharedBrowser
  /** Self-repair of broken steps (services.repairer). */
  repairer?: Pick<Repairer, 'forRun'>
  /** The credential vault (services.vault): values for steps that name secrets, kept browser sessions. */
  vault?: Pick<VaultService, 'forRun' | 'loadSession' | 'saveSession'>
  /** The files kept with automations (services.automationFiles), for upload steps. */
  automationFiles?: { of(automationId: string): AutomationFileSource }
  /** The live view (services.liveView): what a run's browser shows, for the members watching it. */
  live?: { forRun(runId: string, picture: (page: Page) => Promise<Buffer | null>): LiveFeed }
  /** Human takeover (services.personHelp): "ask a person" steps wait for a member. */
  people?: Pick<PersonHelp, 'ask' | 'answered' | 'listen'>
}) {
  const { runQueue, events, config } = deps
  const logger = deps.logger.child({ component: 'cloud-worker' })
  const workerId = deps.workerId ?? newWorkerId()
  const browsers = deps.browsers ?? createSharedBrowser({ executablePath: config.chromiumPath, logger })
  const executor = createStepExecutor({
    reporting: runQueue,
    runFiles: deps.runFiles,
    browsers,
    logger,
    config,
    repairer: deps.repairer,
    vault: deps.vault,
    automationFiles: deps.automationFiles,
    live: deps.live,
    people: deps.people,
  })
  const active = new Map<string, { done: Promise<void>; abort: AbortController }>()
  let stopping = false
  let loop: Promise<void> | null = null
  let wake: (() => void) | null = null
  let recoverTimer: NodeJS.Timeout | null = null
  let unsubscribe: (() => void) | null = null
  // While the database is out of reach the loop keeps polling; it says so once, not every second.
  let claimFailing = false

  const poke = () => wake?.()

  async function recover() {
    try {
      const recovered = await runQueue.recoverExpired()
      if (recovered) logger.warn({ recovered }, 'runs whose worker stopped were queued again (or failed and refunded)')
      const abandoned = await runQueue.endStaleClientRuns()
      if (abandoned) logger.warn({ abandoned }, 'client runs their device left behind ended failed')
    } catch (error) {
      logger.warn({ err: error }, 'recovering expired runs failed')
    }
  }

  function execute(run: NonNullable<Awaited<ReturnType<RunQueue['claim']>>>) {
    const abort = new AbortController()
    logger.info({ runId: run.id, attempt: run.attempts }, 'cloud run claimed')
    const done = executor
      .execute(run, workerId, abort.signal)
      .then(async (result) => {
        if (result === 'aborted') await runQueue.release(run.id, workerId, 'The server running this was shutting down.')
      })
      .catch((error: unknown) => logger.error({ err: error, runId: run.id }, 'cloud run crashed'))
      .finally(() => {
        active.delete(run.id)
        poke()
      })
    active.set(run.id, { done, abort })
  }

  async function work() {
    while (!stopping) {
      while (!stopping && active.size < config.concurrency) {
        let run
        try {
          run = await runQueue.claim(workerId)
        } catch (error) {
          if (!claimFailing) logger.warn({ err: error }, 'claiming a queued run failed; retrying until it works')
          claimFailing = true
          break
        }
        if (claimFailing) {
          claimFailing = false
          logger.info('claiming queued runs works again')
        }
        if (!run) break
        if (stopping) {
          await runQueue.release(run.id, workerId, 'The server that took this was shutting down.').catch(() => {})
          break
        }
        execute(run)
      }
      if (stopping) break
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, config.pollMs ?? 1_000)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      wake = null
    }
  }

  return {
    workerId,
    /** Runs executing in this process now. */
    get activeRuns() {
      return active.size
    },

    start() {
      if (loop) return
      if (!browsers.available()) {
        logger.warn(
          { chromiumPath: config.chromiumPath },
          `Chromium was not found at ${config.chromiumPath}: cloud runs will fail (and be refunded) until it is installed or CHROMIUM_PATH points to it`,
        )
      }
      logger.info({ workerId, concurrency: config.concurrency, privateTargets: config.privateTargets }, 'cloud worker started')
      // A run queued anywhere (this process or another on the same PostgreSQL) wakes the loop.
      unsubscribe = events.subscribe('run', (event) => {
        if (event.status === 'queued') poke()
      })
      void recover()
      recoverTimer = setInterval(() => void recover(), config.recoverMs ?? 10_000)
      recoverTimer.unref()
      loop = work()
    },

    /**
     * Stops claiming; running runs may finish within `graceMs`, the rest are stopped and given
     * back to the queue for another worker (or this one after a restart).
     */
    async stop(graceMs: number) {
      if (stopping) return
      stopping = true
      unsubscribe?.()
      if (recoverTimer) clearInterval(recoverTimer)
      poke()
      await loop
      const all = () => Promise.all([...active.values()].map((entry) => entry.done))
      if (active.size) {
        logger.info({ running: active.size, graceMs }, 'cloud worker: letting running runs finish')
        let timer: NodeJS.Timeout | undefined
        await Promise.race([all(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))])
        clearTimeout(timer)
      }
      if (active.size) {
        logger.warn({ running: active.size }, 'cloud worker: giving unfinished runs back to the queue')
        for (const entry of active.values()) entry.abort.abort()
        await all()
      }
      if (!deps.browsers) await browsers.close()
      logger.info('cloud worker stopped')
    },
  }
}
