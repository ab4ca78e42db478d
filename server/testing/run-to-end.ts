import { eq } from 'drizzle-orm'
import pino from 'pino'
import { automationRuns } from '#server/db/schema/index.ts'
import { createCloudWorker } from '#server/features/runs/cloud-worker.ts'
import type { TestApp } from './create-test-app.ts'

/**
 * A cloud worker wired as server/main.ts wires it (vault and repairer included), taking the queued
 * cloud runs of the test app on 127.0.0.1's sites until it is stopped.
 */
export function startCloudWorker(t: TestApp, options: { stepTimeoutMs?: number; timeLimitMs?: number } = {}) {
  const worker = createCloudWorker({
    runQueue: t.services.runQueue,
    runFiles: t.services.runFiles,
    events: t.services.events,
    browsers: t.services.browsers,
    repairer: t.services.repairer,
    vault: t.services.vault,
    logger: pino({ level: 'silent' }),
    config: {
      concurrency: 1,
      chromiumPath: '/usr/bin/chromium',
      stepTimeoutMs: options.stepTimeoutMs ?? 5_000,
      timeLimitMs: options.timeLimitMs ?? 90_000,
      maxActions: 100,
      privateTargets: 'loopback',
      pollMs: 50,
    },
  })
  worker.start()
  return worker
}

/** Lets a cloud worker (startCloudWorker) run the queued cloud run `id` to its end, and answers the run's row. */
export async function runToEnd(t: TestApp, id: string, options: { stepTimeoutMs?: number; timeLimitMs?: number } = {}) {
  const worker = startCloudWorker(t, options)
  try {
    for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
      const [row] = await t.db.select().from(automationRuns).where(eq(automationRuns.id, id))
      if (row && ['succeeded', 'failed', 'cancelled'].includes(row.status)) return row
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error('the run did not finish')
  } finally {
    await worker.stop(1_000)
  }
}
