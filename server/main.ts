import cluster from 'node:cluster'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import path from 'node:path'
import type { ServerBuild } from 'react-router'
import type { ViteDevServer } from 'vite'
import { createNodeListener } from './app.ts'
import { startProcesses } from './cluster.ts'
import { resolveAuthSecret } from './auth-secret.ts'
import { openDatabase } from './db/client.ts'
import { migrationsPending } from './db/pending-migrations.ts'
import { seed } from './db/seed.ts'
import { EnvError, loadEnv, type Env } from './env.ts'
import { createCloudWorker } from './features/runs/cloud-worker.ts'
import { createScheduler } from './features/runs/scheduler.ts'
import { createRunRetention } from './features/runs/run-retention.ts'
import { pages } from './http/pages.ts'
import { releaseMemoryWhenIdle } from './idle-memory.ts'
import { staticAssets } from './http/static-assets.ts'
import { createLogger, type Logger } from './logger.ts'
import { createServices, type Services } from './services.ts'

const SHUTDOWN_GRACE_MS = 10_000
const RATE_LIMIT_PRUNE_MS = 60 * 60 * 1000
/** How long after listening the background work starts and the modules loaded on demand are loaded anyway. */
const AFTER_START_DELAY_MS = 1_000

/** `node server.js` in production: one server process, or WEB_CONCURRENCY of them on one port (cluster.ts). */
export async function startServers(options: { server: Server }) {
  const env = envOrExit()
  if (cluster.isPrimary && env.processes > 1) startProcesses(env, createLogger(env))
  else await startServer(options)
}

/** Boot: environment -> database (migrated, seeded) -> services -> HTTP server; a second later, background work and warm-ups. */
export async function startServer(options: { server: Server; vite?: ViteDevServer }) {
  // performance.now() counts from the process start: before this, Node started and loaded the modules.
  const started = performance.now()
  const phases: Record<string, number> = { load: Math.round(started) }
  let phaseStart = started
  const phaseDone = (name: string) => {
    const now = performance.now()
    phases[name] = Math.round(now - phaseStart)
    phaseStart = now
  }
  const env = envOrExit()
  const logger = createLogger(env)
  const database = await openDatabase(
    env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX, logger }
      : { kind: 'pglite', dataDir: path.join(env.DATA_DIR, 'pglite') },
  )
  phaseDone('database')
  const services = await database.exclusively(async () => {
    // One query says whether any migration is missing; the migrator runs only then.
    const pending = await migrationsPending(database.db)
    if (pending) await database.migrate()
    phaseDone('migrate')
    logger.info(
      { database: database.kind, location: database.location },
      pending ? 'database ready (migrations applied)' : 'database ready (no pending migrations)',
    )
    const services = createServices({ database, env, logger, authSecret: resolveAuthSecret(env.AUTH_SECRET, env.DATA_DIR) })
    phaseDone('services')
    await seed(database.db, services, logger, {
      demo: env.SEED_DEMO,
      adminEmail: env.SEED_ADMIN_EMAIL,
      adminPassword: env.SEED_ADMIN_PASSWORD,
      memberEmail: env.SEED_MEMBER_EMAIL,
      memberPassword: env.SEED_MEMBER_PASSWORD,
    })
    // A vault key rotation under way (docs/decisions/025): re-wrap the data keys the old key wrapped.
    if (env.VAULT_KEY_PREVIOUS) {
      const rewrapped = await services.vault.rewrapDataKeys()
      logger.info({ rewrapped }, 'vault: data keys re-wrapped under VAULT_KEY; VAULT_KEY_PREVIOUS can be removed')
    }
    phaseDone('seed')
    return services
  })
  if (!env.googleEnabled)
    logger.info('Google sign-in is off (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET unset): the button shows "Coming Soon"')
  if (services.aiDrafter.kind === 'offline') logger.info('AI drafting: offline drafter (AI_BASE_URL unset)')
  else logger.info({ model: services.aiDrafter.model }, 'AI drafting: OpenAI-compatible endpoint')

  const vite = options.vite
  const getBuild = vite
    ? () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
    : () => import('virtual:react-router/server-build') as Promise<ServerBuild>
  const listener = createNodeListener({
    env,
    logger,
    database,
    services,
    assets: vite ? undefined : staticAssets(path.resolve('build/client')),
    pages: pages({ getBuild, mode: env.isProduction ? 'production' : 'development', services, publicUrl: env.PUBLIC_URL }),
  })
  const server = options.server
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (vite) vite.middlewares(req, res, () => listener(req, res))
    else listener(req, res)
  })
  phaseDone('app')
  await new Promise<void>((resolve) => server.listen(env.PORT, env.HOST, resolve))
  phaseDone('listen')
  // startupMs: from startServer() to listening; phases (ms): load = the process start to startServer().
  logger.info(
    { url: env.PUBLIC_URL, port: env.PORT, host: env.HOST, startupMs: Math.round(performance.now() - started), phases },
    `Aether is running at ${env.PUBLIC_URL}`,
  )

  const pruneTimer = setInterval(() => void services.rateLimits.prune().catch(() => {}), RATE_LIMIT_PRUNE_MS)
  pruneTimer.unref()
  const idleMemory = releaseMemoryWhenIdle({ logger, also: database.releaseMemory })

  // A moment after the server answers, so that health checks and the first requests go first
  // (issue 18, cold start): the cloud worker, the scheduler and webhook deliveries start (their
  // first queries would hold the embedded database), and what the first sign-in (Better Auth) and
  // the first page (the pages' build) would otherwise load on demand is loaded. No warm-up in
  // development, where Vite compiles on demand.
  let background: { stop(graceMs: number): Promise<void> } | null = null
  const afterStart = setTimeout(() => {
    background = startBackgroundWork(env, database, services)
    if (!vite) void warmUp(logger, { 'Better Auth': services.betterAuth.instance, pages: getBuild })
  }, AFTER_START_DELAY_MS)

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down: no new connections, finishing requests')
    idleMemory.stop()
    clearInterval(pruneTimer)
    clearTimeout(afterStart)
    const force = setTimeout(() => {
      logger.warn('shutdown grace period over; closing remaining connections')
      server.closeAllConnections()
    }, SHUTDOWN_GRACE_MS)
    force.unref()
    await Promise.all([
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      }),
      // Running cloud runs may finish within the grace period; the rest go back to the queue.
      background?.stop(SHUTDOWN_GRACE_MS - 2_000),
    ])
    await services.browsers.close()
    await vite?.close()
    await database.close()
    logger.info('stopped')
    logger.flush()
    process.exit(0)
  }
  process.once('SIGTERM', () => void shutdown('SIGTERM'))
  process.once('SIGINT', () => void shutdown('SIGINT'))
  // One of WEB_CONCURRENCY processes whose primary is gone (killed): nobody would stop it.
  if (cluster.isWorker) process.once('disconnect', () => void shutdown('the primary process ended'))
  return { server }
}

function envOrExit(): Env {
  try {
    return loadEnv()
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}

/** Loads each module in turn, logging how long it took; a failure is logged (the request that needs it fails the same way). */
async function warmUp(logger: Logger, steps: Record<string, () => Promise<unknown>>) {
  for (const [name, step] of Object.entries(steps)) {
    const started = performance.now()
    try {
      await step()
      logger.debug({ ms: Math.round(performance.now() - started) }, `warm-up: ${name} loaded`)
    } catch (error) {
      logger.error({ err: error }, `warm-up: ${name} did not load`)
    }
  }
}

/**
 * The cloud worker and the scheduler (docs/decisions/012-automations-credits-and-runs.md), unless
 * RUN_WORKER=false makes this process serve HTTP only.
 */
function startBackgroundWork(env: Env, database: Awaited<ReturnType<typeof openDatabase>>, services: Services) {
  const logger = services.logger
  if (!env.RUN_WORKER) {
    logger.info('cloud runs and schedules: off in this process (RUN_WORKER=false)')
    return { stop: async (_graceMs: number) => {} }
  }
  if (env.RUN_ALLOW_PRIVATE_TARGETS !== 'none') {
    logger.warn(
      { RUN_ALLOW_PRIVATE_TARGETS: env.RUN_ALLOW_PRIVATE_TARGETS },
      `cloud runs may reach ${env.RUN_ALLOW_PRIVATE_TARGETS === 'all' ? 'private networks' : 'this machine (loopback)'}: only for tests and private deployments`,
    )
  }
  const worker = createCloudWorker({
    runQueue: services.runQueue,
    runFiles: services.runFiles,
    events: services.events,
    browsers: services.browsers,
    repairer: services.repairer,
    vault: services.vault,
    automationFiles: services.automationFiles,
    live: services.liveView,
    people: services.personHelp,
    logger,
    config: {
      concurrency: env.RUN_CONCURRENCY,
      chromiumPath: env.CHROMIUM_PATH,
      stepTimeoutMs: env.RUN_STEP_TIMEOUT_MS,
      timeLimitMs: env.RUN_TIME_LIMIT_MS,
      maxActions: env.RUN_MAX_ACTIONS,
      privateTargets: env.RUN_ALLOW_PRIVATE_TARGETS,
    },
  })
  const scheduler = createScheduler({ db: database.db, runs: services.runs, logger })
  worker.start()
  scheduler.start()
  // Run files past their plan's retention (docs/decisions/057).
  const retention = createRunRetention({ db: database.db, runFiles: services.runFiles, logger }).start()
  // The overview's figures of each finished day (docs/decisions/063).
  const rollup = services.dailyRollup.start()
  // Outgoing webhooks: queued deliveries and their retries (docs/decisions/026).
  const webhooks = services.outgoingWebhooks.start()
  // Members' data exports to build and expired ones to remove, accounts whose grace period ended (docs/decisions/065).
  const exports = services.dataExports.start()
  const erasure = services.accountDeletion.start()
  return {
    async stop(graceMs: number) {
      await scheduler.stop()
      retention.stop()
      rollup.stop()
      erasure.stop()
      await exports.stop()
      await webhooks.stop()
      await worker.stop(graceMs)
    },
  }
}
