import { setTimeout as sleep } from 'node:timers/promises'
import type { RunDto } from '#server/features/runs/run.dto.ts'
import { dataOf, type AetherClient } from '#sdk'
import { executeLocally } from './run-locally.ts'

/** How often an idle runner asks for queued runs. */
export const DEFAULT_POLL_MS = 15_000

/**
 * Takes the runs queued for this device (scheduled runs of automations set to run on it) one at a
 * time and runs them here, until `signal` aborts. A server out of reach is asked again after the
 * pause: the runner keeps going through restarts and network drops.
 */
export async function serveQueuedRuns(options: {
  api: AetherClient
  chromiumPath: string
  signal: AbortSignal
  pollMs?: number
  browsers?: Parameters<typeof executeLocally>[0]['browsers']
  /** The folders desktop steps may use. */
  allowedFolders?: readonly string[]
  /** The browser profile runs start with and keep their session in (`--profile`). */
  profile?: Parameters<typeof executeLocally>[0]['profile']
  /** This runner as paired: vault values reach it sealed to its key. */
  device?: Parameters<typeof executeLocally>[0]['device']
  /** A run taken, before it runs. */
  onStart?: (run: RunDto) => void
  onRun?: (run: RunDto) => void
  onError?: (error: unknown) => void
}): Promise<void> {
  const { api, signal } = options
  while (!signal.aborted) {
    let next: RunDto | null = null
    try {
      next = await dataOf(api.POST('/runs/claim'))
    } catch (error) {
      options.onError?.(error)
    }
    if (next) {
      options.onStart?.(next)
      const done = await executeLocally({
        api,
        run: next,
        chromiumPath: options.chromiumPath,
        browsers: options.browsers,
        signal,
        allowedFolders: options.allowedFolders,
        profile: options.profile,
        device: options.device,
      })
      options.onRun?.(done)
      continue
    }
    await sleep(options.pollMs ?? DEFAULT_POLL_MS, undefined, { signal }).catch(() => {})
  }
}
