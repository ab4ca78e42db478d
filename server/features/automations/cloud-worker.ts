import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { hostname } from 'node:os'
import { chromium, type Browser } from 'playwright-core'
import type { EventBus } from '#server/features/events/event-bus.ts'
import type { Logger } from '#server/logger.ts'
import type { RunFiles } from './run-files.ts'
import type { RunQueue } from './run-queue.ts'
import { createStepExecutor, type BrowserSource, type ExecutorConfig } from './step-executor.ts'

/** Chromium's switches for a closed network and a container (as tests/e2e use them). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]

const LAUNCH_TIMEOUT_MS = 30_000
/** An unused browser is closed after this long, so an idle server does not keep Chromium's memory. */
const BROWSER_IDLE_MS = 60_000

export class BrowserUnavailableError extends Error {}

/**
 * One Chromium per process, shared by its runs (each gets a fresh context): launched on first
 * use, launched again if it dies, closed when idle. A missing executable is reported once.
 */
export function createSharedBrowser(options: { executablePath: string; logger: Logger; idleMs?: number }): BrowserSource & {
  close(): Promise<void>
  /** Whether the executable exists (checked again at every launch). */
  available(): boolean
} {
  const { executablePath, logger } = options
  let browser: Browser | null = null
  let launching: Promise<Browser> | null = null
  let users = 0
  let idleTimer: NodeJS.Timeout | null = null
  let warned = false

  async function launch(): Promise<Browser> {
    if (!existsSync(executablePath)) {
      if (!warned) {
        logger.warn(
          { executablePath },
          `Chromium was not found at ${executablePath}: cloud runs fail (and are refunded) until it is installed (apt-get install chromium) or CHROMIUM_PATH points to it`,
        )
        warned = true
      }
      throw new BrowserUnavailableError(`Chromium was not found at ${executablePath}`)
    }
    try {
      const started = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, timeout: LAUNCH_TIMEOUT_MS })
      warned = false
      started.on('disconnected', () => {
        if (browser === started) {
          browser = null
          logger.warn('the cloud browser stopped; it starts again with the next run')
        }
      })
      logger.info({ version: started.version() }, 'cloud browser started')
      return started
    } catch (error) {
      if (!warned) {
        logger.warn({ err: error, executablePath }, 'the cloud browser could not start: cloud runs fail (and are refunded)')
        warned = true
      }
      throw new BrowserUnavailableError(`Chromium did not start: ${(error as Error).message.split('\n')[0]}`)
    }
  }

  async function closeBrowser() {
    const current = browser
    browser = null
    await current?.close().catch(() => {})
  }

  return {
    available: () => existsSync(executablePath),
    async acquire() {
      users += 1
      if (idleTimer) clearTimeout(idleTimer)
      idleTimer = null
      try {
        if (browser?.isConnected()) return browser
        launching ??= launch().finally(() => {
          launching = null
        })
        const started = await launching
        browser = started
        return started
      } catch (error) {
        users -= 1
        throw error
      }
    },
    release() {
      users = Math.max(0, users - 1)
      if (users === 0 && browser) {
        idleTimer = setTimeout(() => void closeBrowser(), options.idleMs ?? BROWSER_IDLE_MS)
        idleTimer.unref()
      }
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer)
      await launching?.catch(() => {})
      await closeBrowser()
    },
  }
}

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
  runQueue: Pick<RunQueue, 'claim' | 'progress' | 'finish' | 'release' | 'recoverExpired'>
  runFiles: Pick<RunFiles, 'saveScreenshot' | 'screenshotName'>
  events: Pick<EventBus, 'subscribe'>
  logger: Logger
  config: CloudWorkerConfig
  workerId?: string
}) {
  const { runQueue, events, config } = deps
  const logger = deps.logger.child({ component: 'cloud-worker' })
  const workerId = deps.workerId ?? newWorkerId()
  const browsers = createSharedBrowser({ executablePath: config.chromiumPath, logger })
  const executor = createStepExecutor({ runQueue, runFiles: deps.runFiles, browsers, logger, config })
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
      await browsers.close()
      logger.info('cloud worker stopped')
    },
  }
}

export type CloudWorker = ReturnType<typeof createCloudWorker>
