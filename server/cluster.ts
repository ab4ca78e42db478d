import cluster, { type Worker } from 'node:cluster'
import type { Env } from './env.ts'
import type { Logger } from './logger.ts'

/** How long the processes have to finish their requests and runs after SIGTERM (each has 10 s of its own, main.ts). */
const STOP_GRACE_MS = 15_000
/** A process that crashed is started again after this pause, so a crash loop does not spin. */
const RESTART_DELAY_MS = 1_000

/**
 * WEB_CONCURRENCY server processes on one port (docs/decisions/049). This process (the primary)
 * serves nothing: node:cluster accepts the connections and hands them out in turn. Everything the
 * processes share lives in PostgreSQL (sessions, rate limits, live events, the run queue, the
 * public content's version). The first process alone runs the background work (cloud runs,
 * schedules, webhook deliveries), so a machine runs as many browsers as RUN_CONCURRENCY says,
 * whatever the number of processes.
 *
 * A process that stops before it listens (a bad database address, a failed migration) stops them
 * all; one that crashes later is started again in its place.
 */
export function startProcesses(env: Pick<Env, 'processes' | 'RUN_WORKER'>, logger: Logger) {
  const roles = new Map<Worker, number>()
  const listening = new Set<Worker>()
  let stopping = false

  const start = (index: number) => {
    // Only the first process runs the background work, unless RUN_WORKER=false turned it off everywhere.
    const worker = cluster.fork(index === 0 && env.RUN_WORKER ? {} : { RUN_WORKER: 'false' })
    roles.set(worker, index)
    worker.once('listening', () => listening.add(worker))
  }

  const stopAll = (code: number) => {
    if (stopping) return
    stopping = true
    const force = setTimeout(() => {
      logger.warn('server processes still running after the grace period: killing them')
      for (const worker of roles.keys()) worker.process.kill('SIGKILL')
    }, STOP_GRACE_MS)
    force.unref()
    const stopped = () => {
      if (roles.size > 0) return
      logger.info('all server processes stopped')
      logger.flush()
      process.exit(code)
    }
    cluster.on('exit', stopped)
    for (const worker of roles.keys()) worker.process.kill('SIGTERM')
    stopped()
  }

  cluster.on('exit', (worker, exitCode, signal) => {
    const index = roles.get(worker) ?? 0
    roles.delete(worker)
    if (stopping) return
    if (!listening.delete(worker)) {
      logger.error({ process: index + 1, exitCode, signal }, 'a server process stopped before it listened: stopping the others')
      stopAll(1)
      return
    }
    logger.error({ process: index + 1, exitCode, signal }, 'a server process stopped: starting another in its place')
    setTimeout(() => {
      if (!stopping) start(index)
    }, RESTART_DELAY_MS).unref()
  })

  process.once('SIGTERM', () => stopAll(0))
  process.once('SIGINT', () => stopAll(0))
  logger.info({ processes: env.processes }, `starting ${env.processes} server processes (WEB_CONCURRENCY)`)
  for (let index = 0; index < env.processes; index++) start(index)
}
