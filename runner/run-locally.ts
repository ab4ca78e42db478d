import pino from 'pino'
import type { RunDto } from '#server/features/runs/run.dto.ts'
import { createSharedBrowser, type BrowserSource, type SharedBrowser } from '#server/browser/shared-browser.ts'
import { createStepExecutor, type ExecutableRun } from '#server/features/runs/step-executor.ts'
import { dataOf, type AetherClient } from '#sdk'
import { createRunReporter } from './run-reporter.ts'
import { createDesktopActions } from './desktop-actions.ts'
import { namesVaultValues } from '#common/device-vault.ts'
import { deviceVaultFor } from './device-vault.ts'
import type { BrowserProfile } from './browser-profile.ts'

/**
 * Chromium's sandbox on the member's machine: on, unless the runner runs as root (Chromium refuses
 * it there) or AETHER_RUNNER_NO_SANDBOX=1 says the machine cannot give it (some containers).
 */
export const chromiumSandbox = (env: NodeJS.ProcessEnv = process.env) => process.getuid?.() !== 0 && env.AETHER_RUNNER_NO_SANDBOX !== '1'

/** The runner's limits of a run when the automation sets none (the run's own limits still apply). */
export const LOCAL_RUN_DEFAULTS = { stepTimeoutMs: 15_000, timeLimitMs: 10 * 60_000, maxActions: 1000 }

/** A client run as the API answers it, read the way the executor reads a cloud run's row. */
export function executableRun(run: RunDto): ExecutableRun {
  return {
    id: run.id,
    workspaceId: run.workspaceId,
    userId: run.userId,
    automationId: run.automationId,
    steps: run.steps,
    // The server filled the inputs in (in one pass); a run typing vault values takes its steps as written instead (device-vault.ts).
    inputs: null,
    attempts: 1,
    selfRepair: run.selfRepair,
    // The member's own browser profile keeps its sessions; the runner starts a fresh context.
    keepSession: false,
    traceMode: 'off',
    askPersonOnCaptcha: false,
    signInBlock: run.signInBlock,
    timeLimitSeconds: run.timeLimitSeconds,
    stepLimit: run.stepLimit,
    dataRows: run.dataRows,
    rowOutcomes: run.rowOutcomes,
    startStep: run.startStep,
    resumeUrl: run.resumeUrl,
  }
}

/**
 * Runs a client run (already started on the server, `runner: 'client'`) on this machine with the
 * cloud's executor, in the installed Chromium, and reports it through the client-run API so it
 * shows live in Run History. The runner reaches what the member's machine reaches (intranet sites
 * included): it is their machine and their network. Answers the run as the server stored it.
 */
export async function executeLocally(options: {
  api: AetherClient
  run: RunDto
  chromiumPath: string
  /** Tests lend their browser; otherwise one is started and closed. */
  browsers?: BrowserSource
  signal?: AbortSignal
  limits?: Partial<typeof LOCAL_RUN_DEFAULTS>
  /** The folders desktop steps may use (the runner's config); none: every desktop step is refused. */
  allowedFolders?: readonly string[]
  /** Opens a file with its app (tests watch instead). */
  open?: (file: string) => Promise<void>
  /** The browser profile runs start with and keep their session in (`--profile`). */
  profile?: BrowserProfile
  /** This runner as paired: vault values reach it sealed to its key (docs/decisions/048). */
  device?: { id: string; privateKey?: JsonWebKey }
}): Promise<RunDto> {
  const logger = pino({ level: 'silent' })
  let executable = executableRun(options.run)
  let vault: Parameters<typeof createStepExecutor>[0]['vault']
  if (namesVaultValues(options.run.steps)) {
    try {
      const { steps, secrets } = await deviceVaultFor(options.api, options.run, {
        id: options.device?.id ?? '',
        privateKey: options.device?.privateKey,
      })
      // The steps as written, filled with the inputs and the values in one pass, as in the cloud.
      executable = { ...executable, steps, inputs: options.run.inputs }
      vault = { forRun: () => Promise.resolve(secrets), loadSession: () => Promise.resolve(null), saveSession: () => Promise.resolve() }
    } catch (error) {
      await options.api.POST('/runs/{id}/finish', {
        params: { path: { id: options.run.id } },
        body: {
          status: 'failed',
          error: `The vault values this run types did not reach this runner: ${error instanceof Error ? error.message : String(error)}`,
        },
      })
      return storedRun(options.api, options.run.id)
    }
  }
  let own: SharedBrowser | null = null
  const browsers =
    options.browsers ?? (own = createSharedBrowser({ executablePath: options.chromiumPath, logger, sandbox: chromiumSandbox() }))
  const reporter = createRunReporter(options.api)
  const executor = createStepExecutor({
    reporting: reporter,
    runFiles: reporter,
    browsers,
    logger,
    config: { ...LOCAL_RUN_DEFAULTS, ...options.limits, privateTargets: 'all', where: 'on this machine' },
    desktop: createDesktopActions({ allowed: options.allowedFolders ?? [], open: options.open }),
    profile: options.profile,
    // The runner's sessions stay in its own profile: nothing is kept on the server.
    vault,
  })
  try {
    const result = await executor.execute(executable, 'local-runner', options.signal)
    // Stopped here (Ctrl+C): nobody else will finish it, so it ends failed, saying why.
    if (result === 'aborted') {
      await options.api
        .POST('/runs/{id}/finish', {
          params: { path: { id: options.run.id } },
          body: { status: 'failed', error: 'The local runner was stopped while it ran this.' },
        })
        .catch(() => {})
    }
  } finally {
    await own?.close()
  }
  return storedRun(options.api, options.run.id)
}

/** The run as the server stored it. */
const storedRun = (api: AetherClient, id: string) => dataOf(api.GET('/runs/{id}', { params: { path: { id } } }))

/** Starts a run of the automation on this machine (`trigger: desktop`) and executes it. */
export async function runAutomationLocally(
  options: Omit<Parameters<typeof executeLocally>[0], 'run'> & {
    automationId: string
    inputs?: Record<string, string>
    /** The run's data rows as CSV (`run --rows <file>`). */
    csv?: string
  },
): Promise<RunDto> {
  const run = await dataOf(
    options.api.POST('/automations/{id}/runs', {
      params: { path: { id: options.automationId } },
      body: {
        where: 'client',
        trigger: 'desktop',
        ...(options.inputs && Object.keys(options.inputs).length ? { inputs: options.inputs } : {}),
        ...(options.csv !== undefined ? { csv: options.csv } : {}),
      },
    }),
  )
  return executeLocally({ ...options, run })
}
