// One run from its first step to its outcome: browser session, step loop, time and action limits,
// cancelling, the sign-in block, kept sessions, and whose fault a failure is (refunds).
// Over 300 lines: all of these read and change one run's state (deadline, stop signal, lease,
// screenshots) in one closure; the step actions are step-actions.ts's, progress run-progress.ts's.
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core'
import { fillRunStep, type RunInputs, type RunScope } from '#common/run-inputs.ts'
import { onErrorOf, type AutomationStep } from '#common/automation-steps.ts'
import { RepeatLimit, runWorkflow, type DataRow, type RowOutcome, type StepScope, type WithRows } from '#common/workflow-interpreter.ts'
import { DESKTOP_STEP_TYPES } from '#common/desktop-steps.ts'
import { conditionInWords } from '#common/workflow-words.ts'
import { failedRowsInWords } from '#common/data-rows.ts'
import { conditionHolds } from '#server/browser/conditions.ts'
import { runScript } from '#server/browser/script-action.ts'
import { createRunFileSteps, type AutomationFileSource } from './run-file-steps.ts'
import { isVaultPlaceholder, misplacedSecrets, placeholdersOf, secretReadBacks, type Placeholder } from '#common/step-placeholders.ts'
import { describeAlternative, type TargetAlternative } from '#common/targets.ts'
import {
  MAX_RUN_STORED_BYTES,
  RUN_FILES_FULL,
  MAX_RUN_STEPS,
  MAX_STEP_PICTURE_BYTES,
  STEP_EXTRACTED_ROWS,
  stepShotName,
  type RunStep,
} from '#common/run-steps.ts'
import type { Logger } from '#server/logger.ts'
import { createExtractedTable } from '#common/extracted-table.ts'
import type { Repairer } from '#server/features/planning/repairer.ts'
import type { RunSecrets } from '#common/run-secrets.ts'
import type { VaultService } from '#server/features/vault/vault.service.ts'
import type { RunFiles } from './run-files.ts'
import { createRunProgress, type RunReporting } from './run-progress.ts'
import { performWithOnError } from './step-on-error.ts'
import type { RunOutcome } from './run-queue.ts'
import type { Run } from './run.service.ts'
import type { BrowserSource } from '#server/browser/shared-browser.ts'
import {
  cleanMessage,
  describeStep,
  findElement,
  inPage,
  performStep,
  seconds,
  short,
  StepFailure,
  type StepContext,
} from '#server/browser/step-actions.ts'
import { openBrowserSession, type BrowserSession } from '#server/browser/browser-session.ts'
import { resolveTarget } from '#server/browser/target-resolver.ts'
import { stepPicture } from '#server/browser/step-picture.ts'
import { humanCheckMessage, humanCheckOn } from '#server/browser/human-check.ts'
import type { LiveFeed } from './live-view.ts'
import { startTraceRecorder, type TraceRecorder } from './trace-recorder.ts'
import type { PersonAction, PersonHelp } from './person-help.ts'
import { ASK_PERSON_IN_THE_CLOUD, personInputInWords, type RunWaiting } from '#common/person-help.ts'
import { createTargetGuard, type BlockedRequest, type LookupAll, type PrivateTargetPolicy } from '#server/browser/target-guard.ts'

export interface ExecutorConfig {
  /** How long one step may wait for its element, page or text. */
  stepTimeoutMs: number
  /** How long a whole run may take. */
  timeLimitMs: number
  /** The most steps (browser actions) one run performs. */
  maxActions: number
  privateTargets: PrivateTargetPolicy
  /** How often the lease is renewed while a step runs (the lease lasts 30 s). */
  heartbeatMs?: number
  /** DNS for the target guard (tests map names to addresses). */
  lookup?: LookupAll
  /** The longest a run waits for a person, below its plan's wait (tests shorten it). */
  personWaitMs?: number
  /** Where the run runs, as its log's first line says it: 'in the cloud' (the default) or 'on this machine' (the local runner). */
  where?: string
}

/**
 * How an execution ended: finished (succeeded or failed, stored), stopped (cancelled by the
 * member or the lease lost: the run is not ours any more) or aborted (our shutdown: the caller
 * gives the run back to the queue).
 */
export type ExecutionResult = 'succeeded' | 'failed' | 'stopped' | 'aborted'

const MAX_BLOCKED_LOG_LINES = 20
const FAILURE_SCREENSHOT_MS = 5_000
/** How long the picture after a step may take (the step is done; the run does not wait on a slow page for long). */
const STEP_SHOT_MS = 3_000
const REPAIR_SCREENSHOT_MS = 5_000
/** How long a "for each" block looks for its first item (the page settled after the step before). */
const ITEMS_LOOK_MS = 5_000
/** Failed data rows get a screenshot each, up to this many. */
const MAX_ROW_FAILURE_SCREENSHOTS = 10
/** How long the sign-in block's check looks for its target. */
const SIGN_IN_CHECK_MS = 3_000

/**
 * What the executor reads of a run: a cloud run's row (its steps as written, and the inputs to
 * fill into them), or a client run as the local runner received it (`inputs: null`: the server
 * filled them in, and the steps are run as they are).
 */
export type ExecutableRun = Pick<
  Run,
  | 'id'
  | 'workspaceId'
  | 'userId'
  | 'automationId'
  | 'steps'
  | 'attempts'
  | 'selfRepair'
  | 'keepSession'
  | 'traceMode'
  | 'askPersonOnCaptcha'
  | 'signInBlock'
  | 'timeLimitSeconds'
  | 'stepLimit'
  | 'dataRows'
  | 'rowOutcomes'
  | 'startStep'
  | 'resumeUrl'
> & { inputs: RunInputs | null }

/** The browser did not start: our fault, refunded. */
class BrowserUnavailable extends Error {}

/** Without a vault, a run's inputs are filled and a step that names a secret cannot be: it fails saying so. */
const WITHOUT_VAULT: RunSecrets = {
  fill: (step, inputs, scope) => Promise.resolve({ ...fillRunStep(step, inputs, () => undefined, scope), typing: null }),
  hide: (text: string) => text,
  hidden: new Map(),
  refusal: null,
}

/**
 * A client run as the API answered it (the local runner): the server filled its inputs in, and no
 * vault value ever reaches a client (docs/decisions/025), so whatever its steps hold is text.
 */
const AS_GIVEN: RunSecrets = {
  fill: (step, _inputs, scope) => Promise.resolve({ ...fillRunStep(step, null, (placeholder) => placeholder.text, scope), typing: null }),
  hide: (text: string) => text,
  hidden: new Map(),
  refusal: null,
}

/** How long a run waits for a person, in words: "15 minutes" (shorter waits in seconds). */
function minutesOf(waiting: RunWaiting): string {
  const ms = Date.parse(waiting.until) - Date.parse(waiting.since)
  if (ms < 60_000) return seconds(ms)
  const minutes = Math.round(ms / 60_000)
  return `${minutes} minute${minutes === 1 ? '' : 's'}`
}

/** Why a placeholder could not be filled, as the failed step says it. */
function notFilled(missing: Placeholder): string {
  if (missing.kind === 'input') return `${missing.text} has no value: the run was started without the input ${missing.name}`
  return `${missing.text} could not be filled: the vault has no ${missing.kind === 'totp' ? 'TOTP secret' : 'secret'} named ${missing.name}`
}

/**
 * Runs one cloud run's steps (step-actions.ts) in a fresh browser context of the shared browser,
 * behind the target guard, reporting progress under the worker's lease (run-progress.ts), and
 * ends the run with its outcome. Rules of fault and refund:
 * docs/decisions/012-automations-credits-and-runs.md.
 */
export function createStepExecutor(deps: {
  /** Where progress and the outcome go: the cloud queue, or the client-run API (the local runner). */
  reporting: RunReporting
  /** Where screenshots go, and (cloud runs) the files a run keeps: downloads, saved tables. */
  runFiles: Pick<RunFiles, 'saveScreenshot' | 'screenshotName'> & Partial<Pick<RunFiles, 'saveFile' | 'readFile' | 'saveTrace'>>
  browsers: BrowserSource
  logger: Logger
  config: ExecutorConfig
  /** Self-repair of broken steps (planning/repairer.ts); without it only a target's own ways are tried. */
  repairer?: Pick<Repairer, 'forRun'>
  /** The member's own machine (the local runner): files inside the folders it may use. Absent in the cloud. */
  desktop?: {
    perform(
      step: Extract<AutomationStep, { type: 'readData' | 'writeData' | 'moveFile' | 'copyFile' | 'openFile' }>,
      run: { table(): Record<string, string | null>[]; setRows(rows: DataRow[]): void },
    ): Promise<string>
  }
  /** The credential vault: the values steps name, filled only here (docs/decisions/025). */
  vault?: Pick<VaultService, 'forRun' | 'loadSession' | 'saveSession'>
  /** The files kept with an automation (cloud runs), for its upload steps. */
  automationFiles?: { of(automationId: string): AutomationFileSource }
  /**
   * The local runner's browser profile (`--profile`): every run starts with its cookies and
   * storage (the member's own sign-ins), and a run that succeeds keeps its own there for the next.
   */
  profile?: { load(): Promise<string | null>; save(state: string): Promise<void> }
  /** The live view of cloud runs (live-view.ts): what the browser shows, for the members watching. */
  live?: { forRun(runId: string, picture: (page: Page) => Promise<Buffer | null>): LiveFeed }
  /** Human takeover (person-help.ts): an "ask a person" step waits for a member; without it, such a step fails. */
  people?: Pick<PersonHelp, 'ask' | 'answered' | 'listen'>
}) {
  const { reporting, runFiles, browsers, logger, config } = deps
  // What failed on our side, in the words of where the run ran: the cloud refunds; the member's own machine has a next step.
  const ours =
    config.where === undefined
      ? {
          browserDidNotStart: (why: string) => `The cloud browser could not start (${why}); the credit was refunded.`,
          browserStopped: 'the cloud browser stopped unexpectedly; the credit was refunded.',
          internalError: 'an internal error stopped the run; the credit was refunded.',
        }
      : {
          browserDidNotStart: (why: string) =>
            `Chromium could not start ${config.where} (${why}). Pass --chromium <the path of Chrome or Chromium>, or set CHROMIUM_PATH.`,
          browserStopped: `the browser ${config.where} stopped unexpectedly.`,
          internalError: 'an internal error of the runner stopped the run.',
        }

  async function execute(run: ExecutableRun, workerId: string, signal?: AbortSignal): Promise<ExecutionResult> {
    const started = Date.now()
    // The automation's own limits may only lower the platform's (docs/decisions/028).
    const timeLimitMs = Math.min(config.timeLimitMs, (run.timeLimitSeconds ?? Infinity) * 1000)
    const maxActions = Math.min(config.maxActions, run.stepLimit ?? Infinity)
    // Moved on by the time the run waits for a person (that wait has its own limit).
    let deadline = started + timeLimitMs
    const stop = new AbortController()
    type State = 'running' | 'stopped' | 'aborted' | 'timed-out'
    let state = 'running' as State
    const halt = (why: 'stopped' | 'aborted' | 'timed-out') => {
      if (state !== 'running') return
      state = why
      stop.abort()
    }
    const onAbort = () => halt('aborted')
    signal?.addEventListener('abort', onAbort, { once: true })
    if (signal?.aborted) halt('aborted')

    // Read once the run starts (inside the try below); until then nothing holds a value.
    let secrets: RunSecrets = WITHOUT_VAULT
    // Fields given a vault value: masked in every later screenshot, and no live view while one shows.
    const masked: Locator[] = []
    // Its pictures are the timeline's: small, and with those fields painted over.
    const live = deps.live?.forRun(run.id, (target) => stepPicture(target, { masked, timeoutMs: STEP_SHOT_MS })) ?? null
    const progress = createRunProgress({
      redact: (text) => secrets.hide(text),
      reporting,
      runId: run.id,
      workerId,
      logger,
      active: () => state !== 'stopped' && state !== 'aborted',
      onLeaseLost: () => halt('stopped'),
    })
    const extracted = createExtractedTable()
    let blockedCount = 0
    const onBlocked = (request: BlockedRequest) => {
      blockedCount += 1
      if (blockedCount <= MAX_BLOCKED_LOG_LINES) progress.log('warn', `Blocked a request to ${short(request.url)}: ${request.reason}.`)
      else if (blockedCount === MAX_BLOCKED_LOG_LINES + 1) progress.log('warn', 'More requests were blocked; they are not listed.')
    }
    const guard = createTargetGuard({ policy: config.privateTargets, lookup: config.lookup })

    let browser: Browser | null = null
    let session: BrowserSession | null = null
    let page: Page | null = null
    let steps: StepContext | null = null
    // The run's Playwright trace (docs/decisions/060), when its automation keeps one (cloud runs).
    let trace: TraceRecorder | null = null
    stop.signal.addEventListener(
      'abort',
      // A run out of time keeps its trace: written before the context closes under the step it was on.
      () =>
        void (state === 'timed-out' && trace ? trace.save() : Promise.resolve()).finally(() => session?.context.close().catch(() => {})),
      { once: true },
    )
    const heartbeat = setInterval(() => void progress.flush(), config.heartbeatMs ?? 5_000)
    let timeLimit = setTimeout(() => halt('timed-out'), timeLimitMs)
    let screenshotCount = 0
    let stepShotCount = 0
    // What the run's files take on disk (MAX_RUN_STORED_BYTES): screenshots, step pictures, kept files.
    let storedBytes = 0
    const store = (bytes: number) => {
      if (storedBytes + bytes > MAX_RUN_STORED_BYTES) return false
      storedBytes += bytes
      progress.stored(storedBytes)
      return true
    }
    let stepsRecorded = 0
    // The way of a target that found the current step's element (its timeline entry says it).
    let found: { used: TargetAlternative; how: RunStep['repaired'] } | null = null
    let label = 'Setup'
    let current = 0
    let outcome: RunOutcome
    // The first failure of a step whose onError is 'continue': the run goes on, then fails with it.
    let failedGoingOn: string | null = null

    const stepContext = (target: Page): StepContext => ({
      page: target,
      guard,
      blocked: session?.blocked ?? [],
      timeout: () => Math.max(1, Math.min(config.stepTimeoutMs, deadline - Date.now())),
      stepSeconds: seconds(config.stepTimeoutMs),
      running: () => state === 'running',
      browserConnected: () => Boolean(browser?.isConnected()),
      stopSignal: stop.signal,
      progress,
      extracted,
      takeScreenshot: async (step, name, timeoutMs) => {
        await takeScreenshot(target, step, name, timeoutMs)
      },
      onRepaired: async (step, failedTarget, repair) => {
        const failed = failedTarget[0] ?? repair.used
        const how = { alternative: 'another way of the step', similar: 'similar words on the page', model: 'the AI model' }[repair.how]
        progress.log(
          'warn',
          `Step ${step}: ${describeAlternative(failed)} was not found; ${how} found ${describeAlternative(repair.used)} instead.`,
        )
        const file = await takeScreenshot(target, step, `Repaired step ${step}`, REPAIR_SCREENSHOT_MS).catch(() => undefined)
        progress.addRepair({ step, failed, used: repair.used, how: repair.how, target: repair.target, file, at: new Date().toISOString() })
      },
      repair: deps.repairer?.forRun(run, (message) => progress.log('warn', message), secrets.hidden) ?? null,
      masked,
      onFound: (used, how) => {
        found ??= { used, how }
      },
      // A switchTab step: the run goes on in the new tab (its screenshots too).
      switchPage: (next) => {
        page = next
        steps = stepContext(next)
        live?.follow(next)
      },
    })

    /** The automation's kept browser state (docs/decisions/025), when it keeps one and has one. */
    async function keptSession(): Promise<BrowserContextOptions['storageState'] | null> {
      if (deps.profile) {
        const state = await deps.profile.load()
        progress.log(
          'info',
          state ? 'Starting with the browser profile of this machine.' : 'The browser profile is empty: starting signed out.',
        )
        return state ? (JSON.parse(state) as BrowserContextOptions['storageState']) : null
      }
      if (!run.keepSession || !run.automationId || !deps.vault) return null
      try {
        const state = await deps.vault.loadSession(run.workspaceId, run.automationId)
        if (!state) {
          progress.log('info', 'No kept browser session yet: starting signed out.')
          return null
        }
        progress.log('info', 'Starting with the browser session kept from an earlier run.')
        return JSON.parse(state) as BrowserContextOptions['storageState']
      } catch (error) {
        logger.warn({ err: error, runId: run.id }, 'cloud run: the kept browser session could not be read')
        progress.log('warn', 'The kept browser session could not be read: starting signed out.')
        return null
      }
    }

    /** After a successful run, its cookies and storage for the next one. */
    async function keepSession() {
      if (deps.profile && session) {
        await deps.profile.save(JSON.stringify(await session.context.storageState()))
        progress.log('info', 'Kept the browser session in the profile of this machine.')
        return
      }
      if (!run.keepSession || !run.automationId || !deps.vault || !session) return
      try {
        const state = await session.context.storageState()
        await deps.vault.saveSession(run.workspaceId, run.automationId, run.id, JSON.stringify(state))
        progress.log('info', 'Kept the browser session for the next run.')
      } catch (error) {
        logger.warn({ err: error, runId: run.id }, 'cloud run: the browser session could not be kept')
        progress.log('warn', 'The browser session could not be kept; the next run starts signed out.')
      }
    }

    /**
     * The sign-in block's check, just before its first step: whether the page shows the run
     * signed in (a target that shows only when signed out is absent, or one that shows only when
     * signed in is present). Looked for briefly: the page has just loaded.
     */
    async function signedInAlready(target: Page, block: NonNullable<ExecutableRun['signInBlock']>): Promise<boolean> {
      const found = await resolveTarget(target, block.check.target, {
        timeoutMs: Math.min(SIGN_IN_CHECK_MS, Math.max(1, deadline - Date.now())),
        match: 'any',
        signal: stop.signal,
      })
      const present = 'locator' in found
      return block.check.present === 'signedIn' ? present : !present
    }

    /**
     * A run whose first address the guard refuses fails before a browser starts: nothing would
     * load, and starting Chromium is the slowest part of a run (seconds on a busy machine).
     */
    async function refuseFirstAddress() {
      const written = run.steps[0]
      if (written?.type !== 'navigate' || written.onError) return
      const first = fillRunStep(written, run.inputs, () => undefined).step
      if (first.type !== 'navigate') return
      const verdict = await guard.checkUrl(first.url)
      if (verdict.allowed) return
      current = 1
      label = 'Step 1 (navigate)'
      progress.log('info', `${label}: ${describeStep(first)}`)
      throw new StepFailure(verdict.reason)
    }

    /** Ends the run at a step before anything ran (its label and log line as if it had started). */
    function failAt(index: number, message: string): never {
      const step = run.steps[index]
      current = index + 1
      label = `Step ${current} (${step?.type ?? 'step'})`
      if (step) progress.log('info', `${label}: ${describeStep(step)}`)
      throw new StepFailure(message)
    }

    /**
     * A stored automation or run from before secrets were bound to fields (docs/decisions/039)
     * may still name one in an address, a target or an expected text: the run does not start, and
     * no value is read. (A client run's steps came filled: whatever they hold is text.)
     */
    function refuseMisplacedSecrets() {
      if (run.inputs === null) return
      const [misplaced] = misplacedSecrets(run.steps)
      if (misplaced) failAt(misplaced.index, misplaced.message.replace(/^Step \d+ \([^)]*\): /, ''))
      // Nor may it read a field back where it types a secret (docs/decisions/039, amended): the run stops before anything is typed or read.
      const [readBack] = secretReadBacks(run.steps)
      if (readBack) failAt(readBack.index, readBack.message.replace(/^Step \d+ \([^)]*\): /, ''))
    }

    /** The page the run is on, for "Resume" (null when it has none, or it is no web page). */
    function pageUrl(): string | null {
      const url = page && !page.isClosed() ? page.url() : null
      return url && /^https?:\/\//i.test(url) ? url : null
    }

    async function takeScreenshot(target: Page, step: number, name: string, timeoutMs: number) {
      const png = await inPage(
        stepContext(target),
        () => target.screenshot({ type: 'png', timeout: timeoutMs, mask: masked }),
        () => `the screenshot took longer than ${seconds(timeoutMs)}`,
      )
      if (!store(png.byteLength)) throw new StepFailure(RUN_FILES_FULL)
      screenshotCount += 1
      const file = runFiles.screenshotName(step, screenshotCount)
      await runFiles.saveScreenshot(run.id, file, png)
      progress.addScreenshot({ name, file, step })
      return file
    }

    /** The small picture after a step (or at its failure) for the timeline; null when none could be taken or kept. */
    async function pictureAfterStep(target: Page | null): Promise<string | null> {
      if (!target || target.isClosed() || !browser?.isConnected()) return null
      try {
        const jpeg = await stepPicture(target, { masked, timeoutMs: STEP_SHOT_MS })
        // Pictures take at most part of the run's room, so its screenshots and files still fit.
        if (storedBytes + jpeg.byteLength > MAX_STEP_PICTURE_BYTES || !store(jpeg.byteLength)) return null
        stepShotCount += 1
        const file = stepShotName(stepShotCount)
        await runFiles.saveScreenshot(run.id, file, jpeg)
        return file
      } catch {
        return null
      }
    }

    /** Whether a field given a vault value is on screen (the live view stays paused while one is). */
    async function secretShown(): Promise<boolean> {
      // A field that cannot be checked counts as shown, unless its tab is gone.
      const shown = await Promise.all(masked.map((field) => !field.page().isClosed() && field.isVisible().catch(() => true)))
      return shown.some(Boolean)
    }

    /**
     * The timeline's entry of a step starting now (docs/decisions/057): `end` records how it ended,
     * with the picture after it and what it extracted.
     */
    function beginStep(n: number, words: string, scope: StepScope) {
      const startedAt = new Date()
      const mark = extracted.mark()
      found = null
      return async (end: Pick<RunStep, 'outcome' | 'error'>, target: Page | null) => {
        if (stepsRecorded >= MAX_RUN_STEPS) return
        stepsRecorded += 1
        const ms = Date.now() - startedAt.getTime()
        const used = found
        progress.addStep({
          step: n,
          round: scope.row ? `row ${scope.row.n + 1}` : scope.item ? `item ${scope.item.n + 1}` : null,
          words,
          target: used ? describeAlternative(used.used) : null,
          repaired: used?.how ?? null,
          startedAt: startedAt.toISOString(),
          ms,
          ...end,
          screenshot: end.outcome === 'skipped' ? null : await pictureAfterStep(target),
          extracted: extracted.since(mark, STEP_EXTRACTED_ROWS),
        })
      }
    }

    // The workflow's state (docs/decisions/046): the values scripts kept, each "for each" block's
    // items, the pages a vault value was typed into (no script runs there) and the rows' outcomes.
    const values: Record<string, string> = {}
    // The data rows: the run's, or those a readData step read on the member's machine.
    const rows: DataRow[] = [...run.dataRows]
    let rowsRead = false
    const fileSteps = createRunFileSteps({
      runId: run.id,
      files: runFiles.saveFile && runFiles.readFile ? { saveFile: runFiles.saveFile, readFile: runFiles.readFile } : null,
      guard,
      table: () => extracted.rows(),
      onKept: (file) => progress.addFile(file),
      reserve: (bytes) => store(bytes),
      automationFiles: run.automationId ? deps.automationFiles?.of(run.automationId) : null,
    })
    const items = new Map<number, Locator>()
    const typedSecretOn = new WeakSet<Page>()
    let rowOutcomes: RowOutcome[] = []
    let failedRows = 0
    const itemOf = (scope: StepScope): Locator | null => (scope.item ? (items.get(scope.item.opener)?.nth(scope.item.n) ?? null) : null)
    const scopeValues = (scope: StepScope): RunScope => ({ row: scope.row?.values, values: scope.values })
    const stepsIn = (scope: StepScope): StepContext => ({ ...(steps as StepContext), within: itemOf(scope) })
    /** The step about to run, for its label and for a failure's screenshot. */
    const enter = (step: AutomationStep, index: number, scope: StepScope) => {
      current = index + 1
      const round = scope.row ? `, row ${scope.row.n + 1}` : scope.item ? `, item ${scope.item.n + 1}` : ''
      label = `Step ${current} (${step.type}${round})`
    }
    /** A block step's own words with its placeholders filled (never a vault value: those go only into fields). */
    const fillOrFail = async (step: AutomationStep, scope: StepScope) => {
      const filled = fillRunStep(step, run.inputs, () => undefined, scopeValues(scope))
      const [missing] = filled.missing
      if (missing) throw new StepFailure(notFilled(missing))
      return filled.step
    }
    /** A resumed run (docs/decisions/046) opens the page its earlier run stopped on, then starts at its step. */
    async function openResumePage() {
      if (run.startStep <= 1) return
      const finished = run.rowOutcomes.filter((row) => row.status === 'done' || row.status === 'skipped').length
      progress.log(
        'info',
        `Resuming at step ${run.startStep}${finished ? `; ${finished} row${finished === 1 ? '' : 's'} finished earlier are not run again` : ''}.`,
      )
      if (!run.resumeUrl) return
      label = 'Resume'
      await performStep(steps as StepContext, { type: 'navigate', url: run.resumeUrl }, run.startStep)
    }

    /** A script step (docs/decisions/046): never on a page a vault value was typed into. */
    async function runScriptStep(step: Extract<AutomationStep, { type: 'script' }>, scope: StepScope) {
      const context = stepsIn(scope)
      if (typedSecretOn.has(context.page))
        throw new StepFailure('a vault value was typed on this page, so no script may run on it: open another page first')
      const result = secrets.hide(
        await runScript(
          context.page,
          step,
          { row: scope.row?.values ?? null, values: scope.values, inputs: run.inputs ?? {} },
          context.timeout(),
        ),
      )
      if (step.storeAs) {
        values[step.storeAs] = result
        progress.log('info', `${label}: kept ${short(result, 80) || '(empty)'} as {{value.${step.storeAs}}}.`)
      }
      if (step.extract && step.storeAs) extracted.add(step.storeAs, [result])
    }

    /**
     * An "ask a person" step (docs/decisions/059): the run waits, its workspace told, until a member
     * presses Continue (what they did in the live view meanwhile is logged, never kept as steps)
     * or the plan's wait runs out. The wait does not count toward the run's time limit.
     */
    async function askPerson(step: Extract<AutomationStep, { type: 'askPerson' }>, n: number) {
      const people = deps.people
      if (!people) throw new StepFailure(ASK_PERSON_IN_THE_CLOUD)
      const message = secrets.hide(step.message)
      // Heard from before the wait is announced: a person may act the moment the run shows it
      // waits, before this worker is ready for them; what they did meanwhile is done first.
      const early: { action: PersonAction; who: string }[] = []
      let onAction = (action: PersonAction, who: string) => void early.push({ action, who })
      const stopListening = people.listen(run.id, (action, who) => onAction(action, who))
      try {
        const waiting = await people.ask(run.id, workerId, n, message, config.personWaitMs)
        if (!waiting) {
          halt('stopped')
          throw new Error('stopped')
        }
        progress.log('info', `${label}: waiting for a person until ${waiting.until}.`)
        await progress.flush()
        // The person must see the page to act: its pictures paint over any field holding a vault value.
        live?.resume()
        clearTimeout(timeLimit)
        const began = Date.now()
        // One action at a time, in the order they came.
        let acting = Promise.resolve()
        try {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new StepFailure(`nobody pressed Continue within ${minutesOf(waiting)}`)),
              Math.max(0, Date.parse(waiting.until) - Date.now()),
            )
            const stopped = () => reject(new Error('stopped'))
            stop.signal.addEventListener('abort', stopped, { once: true })
            onAction = (action, who) => {
              acting = acting.then(async () => {
                if (action.kind === 'continue') {
                  clearTimeout(timer)
                  stop.signal.removeEventListener('abort', stopped)
                  progress.log('info', `${label}: ${who} pressed Continue.`)
                  return resolve()
                }
                const target = page as Page
                const { input } = action
                try {
                  if (input.kind === 'click') await target.mouse.click(input.x, input.y)
                  else if (input.kind === 'type') await target.keyboard.type(input.text)
                  else await target.keyboard.press(input.key)
                  progress.log('info', `${label}: ${personInputInWords(input, who)}`)
                } catch (error) {
                  progress.log('warn', `${label}: what ${who} did could not be done (${cleanMessage(error)}).`)
                }
                await progress.flush()
              })
            }
            for (const { action, who } of early.splice(0)) onAction(action, who)
          })
        } finally {
          stopListening()
          await acting
          await people.answered(run.id, workerId).catch(() => {})
          deadline += Date.now() - began
          if (state === 'running') timeLimit = setTimeout(() => halt('timed-out'), Math.max(0, deadline - Date.now()))
        }
      } finally {
        stopListening()
      }
    }

    /**
     * The CAPTCHA-like check that made a step fail (human-check.ts), when the automation asks a
     * person for those and none was asked at this step yet (a step of a loop: in this round).
     */
    async function blockingCheck(error: unknown, target: Page, at: string): Promise<string | null> {
      if (!run.askPersonOnCaptcha || !deps.people || !(error instanceof StepFailure) || state !== 'running') return null
      if (checksAsked.has(at) || target.isClosed()) return null
      const check = await humanCheckOn(target).catch(() => null)
      if (check) checksAsked.add(at)
      return check
    }
    const checksAsked = new Set<string>()

    /** One step carried out (its "on error" decides what a failure does), and its timeline entry. */
    async function performAndRecord(
      step: AutomationStep,
      n: number,
      scope: StepScope,
      context: StepContext,
      recordEnd: (end: Pick<RunStep, 'outcome' | 'error'>, target: Page | null) => Promise<void>,
    ) {
      const filled = await secrets.fill(step, run.inputs, scopeValues(scope))
      const [missing] = filled.missing
      if (missing) throw new StepFailure(notFilled(missing))
      if (filled.typing) await live?.pause()
      const performOnce = async () => {
        if (filled.step.type === 'script') return runScriptStep(filled.step, scope)
        if (filled.step.type === 'askPerson') return askPerson(filled.step, n)
        if (DESKTOP_STEP_TYPES.has(filled.step.type)) {
          if (!deps.desktop)
            throw new StepFailure(
              `a ${filled.step.type} step works with files on your own machine: run this automation with the local runner`,
            )
          const said = await deps.desktop.perform(filled.step as Parameters<NonNullable<typeof deps.desktop>['perform']>[0], {
            table: () => extracted.rows(),
            setRows: (read) => {
              rows.splice(0, rows.length, ...read)
              rowsRead = true
            },
          })
          progress.log('info', `${label}: ${said}.`)
          return
        }
        if (filled.step.type === 'download' || filled.step.type === 'upload' || filled.step.type === 'saveTable') {
          const fileStep = filled.step
          const said = await fileSteps.perform(fileStep, context.page, n, context.timeout(), (target) =>
            findElement(context, fileStep, target, n),
          )
          progress.log('info', `${label}: ${said}.`)
          return
        }
        await performStep(context, filled.step, n, { typing: filled.typing })
        if (filled.typing) typedSecretOn.add(context.page)
      }
      const end = await performWithOnError({
        perform: async () => {
          try {
            await performOnce()
          } catch (error) {
            // The automation's opt-in (docs/decisions/059, amended): a person gets past a CAPTCHA-like check, once a step.
            const check = await blockingCheck(error, context.page, label)
            if (!check) throw error
            progress.log('warn', `${label}: ${(error as StepFailure).message}; the page shows ${check}, so a person is asked.`)
            await askPerson({ type: 'askPerson', message: humanCheckMessage(check, n) }, n)
            await performOnce()
          }
        },
        onError: onErrorOf(step),
        label,
        log: (level, message) => progress.log(level, message),
        flush: () => progress.flush(),
        running: () => state === 'running',
        signal: stop.signal,
      })
      if (end.kind === 'failedGoingOn') {
        failedGoingOn ??= end.error
        await takeScreenshot(context.page, n, `Step ${n} failed`, FAILURE_SCREENSHOT_MS).catch(() => {})
      }
      if (end.kind === 'done') progress.countAction()
      if (live?.paused && !(await secretShown())) live.resume()
      // The picture shows the page the run goes on in (a switchTab step moved it).
      await recordEnd(
        end.kind === 'failedGoingOn'
          ? { outcome: 'failed', error: end.error }
          : { outcome: end.kind === 'skipped' ? 'skipped' : 'done', error: null },
        page,
      )
      await progress.flush()
    }

    try {
      progress.log(
        'info',
        `Running ${config.where ?? 'in the cloud'}${run.attempts > 1 ? ` (attempt ${run.attempts})` : ''}: ${run.steps.length} steps.`,
      )
      await progress.flush()
      refuseMisplacedSecrets()
      await refuseFirstAddress()
      if (run.inputs === null) secrets = AS_GIVEN
      else if (deps.vault) secrets = await deps.vault.forRun(run)
      if (secrets.refusal) failAt(secrets.refusal.index, secrets.refusal.message)
      try {
        browser = await browsers.acquire()
      } catch (error) {
        throw new BrowserUnavailable(cleanMessage(error))
      }
      const kept = await keptSession()
      session = await openBrowserSession({
        browser,
        guard,
        onBlocked,
        storageState: kept ?? undefined,
        downloads: run.steps.some((step) => step.type === 'download'),
      })
      if (state !== 'running') await session.context.close()
      else if (run.traceMode !== 'off' && runFiles.saveTrace)
        trace = startTraceRecorder({
          context: session.context,
          pictures: !placeholdersOf(run.steps).some(isVaultPlaceholder),
          logger,
          runId: run.id,
        })
      page = session.page
      steps = stepContext(page)
      live?.follow(page)
      // A new document holds nothing typed before it.
      session.context.on('page', (opened) => opened.on('domcontentloaded', () => typedSecretOn.delete(opened)))
      page.on('domcontentloaded', () => typedSecretOn.delete(page as Page))

      await openResumePage()
      const block = run.signInBlock
      const workflow = await runWorkflow(
        run.steps,
        rows,
        {
          jumpFrom: async (index) => {
            if (!block || index + 1 !== block.from || state !== 'running' || !(await signedInAlready(page as Page, block))) return null
            progress.log('info', `Step ${block.from}: signed in already, so the sign-in steps ${block.from} to ${block.to} are skipped.`)
            return block.to
          },
          running: () => state === 'running',
          log: (level, message) => progress.log(level, message),
          holds: async (step, index, scope) => {
            enter(step, index, scope)
            const filled = await fillOrFail(step, scope)
            if (filled.type !== 'if' && filled.type !== 'repeat') return false
            const held = await conditionHolds(stepsIn(scope), filled, (target) => findElement(stepsIn(scope), filled, target, index + 1))
            // What was decided, in the member's words (values as given, vault values never: they are only typed).
            progress.log(
              'info',
              `${label}: ${filled.type === 'repeat' ? 'until ' : ''}${conditionInWords(filled)}? ${held ? 'Yes' : 'No'}.`,
            )
            return held
          },
          countItems: async (step, index, scope) => {
            enter(step, index, scope)
            const found = await resolveTarget(page as Page, step.target, {
              timeoutMs: Math.min(ITEMS_LOOK_MS, Math.max(1, deadline - Date.now())),
              match: 'any',
              signal: stop.signal,
              within: itemOf(scope),
            })
            if (!('locator' in found)) return 0
            items.set(index, found.locator)
            return found.locator.count()
          },
          perform: async (step, index, scope) => {
            enter(step, index, scope)
            const n = index + 1
            if (progress.actions >= maxActions) throw new StepFailure(`the run's action limit of ${maxActions} was reached`)
            // The log shows the inputs given, and vault placeholders as written.
            const shown = describeStep(fillRunStep(step, run.inputs, (placeholder) => placeholder.text, scopeValues(scope)).step)
            progress.log('info', `${label}: ${shown}`)
            const recordEnd = beginStep(n, shown, scope)
            const context = stepsIn(scope)
            await trace?.step(`${label}: ${shown}`)
            try {
              await performAndRecord(step, n, scope, context, recordEnd)
              await trace?.stepEnd()
            } catch (error) {
              await trace?.stepEnd()
              // The words the run's error will have (the outer catch), so the timeline ends where the run did.
              const why =
                error instanceof StepFailure || error instanceof RepeatLimit
                  ? error.message
                  : state === 'timed-out'
                    ? `the run's time limit of ${seconds(timeLimitMs)} was reached`
                    : browser && !browser.isConnected()
                      ? ours.browserStopped
                      : ours.internalError
              if (state !== 'stopped' && state !== 'aborted') await recordEnd({ outcome: 'failed', error: `${label}: ${why}` }, page)
              throw error
            }
          },
          rowFailure: async (error, index, scope) => {
            if (state !== 'running' || Date.now() >= deadline) return null
            if (!(error instanceof StepFailure) && !(error instanceof RepeatLimit)) return null
            const row = scope.row ? scope.row.n + 1 : 0
            failedRows += 1
            if (page && !page.isClosed() && failedRows <= MAX_ROW_FAILURE_SCREENSHOTS)
              await takeScreenshot(page, index + 1, `Row ${row} failed`, FAILURE_SCREENSHOT_MS).catch(() => {})
            return secrets.hide(`${label}: ${error.message}`)
          },
        },
        { values, startAt: run.startStep - 1, finished: run.rowOutcomes },
      )
      rowOutcomes = workflow.rows
      if (state !== 'running') throw new Error(state)
      if (workflow.stopped) {
        current = workflow.stopped.step
        label = `Step ${current} (stop)`
        if (workflow.stopped.outcome === 'failed') throw new StepFailure(workflow.stopped.message)
        progress.log('info', `${label}: ${workflow.stopped.message}`)
      }
      const rowsFailed = failedRowsInWords(rowOutcomes)
      if (failedGoingOn) {
        outcome = { status: 'failed', error: `${failedGoingOn} (the steps after it ran)`, ourFault: false }
      } else if (rowsFailed) {
        outcome = { status: 'failed', error: rowsFailed, ourFault: false }
      } else {
        outcome = { status: 'succeeded' }
        await keepSession()
      }
    } catch (error) {
      rowOutcomes = (error as WithRows | null)?.rowOutcomes ?? rowOutcomes
      if (state === 'aborted' || state === 'stopped') {
        logger.info({ runId: run.id, workerId, state }, `cloud run ${state}`)
        return cleanUp(state)
      }
      if (state === 'timed-out' || Date.now() >= deadline) {
        outcome = {
          status: 'failed',
          error: `${label}: the run's time limit of ${seconds(timeLimitMs)} was reached`,
          ourFault: false,
        }
      } else if (error instanceof StepFailure || error instanceof RepeatLimit) {
        outcome = { status: 'failed', error: `${label}: ${error.message}`, ourFault: false }
        if (page && !page.isClosed()) {
          await takeScreenshot(page, current, 'At failure', FAILURE_SCREENSHOT_MS).catch(() => {})
        }
      } else if (error instanceof BrowserUnavailable) {
        outcome = { status: 'failed', error: ours.browserDidNotStart(error.message), ourFault: true }
      } else if (browser && !browser.isConnected()) {
        outcome = { status: 'failed', error: `${label}: ${ours.browserStopped}`, ourFault: true }
      } else {
        logger.error({ err: error, runId: run.id }, 'cloud run: unexpected error')
        outcome = { status: 'failed', error: `${label}: ${ours.internalError}`, ourFault: true }
      }
    }

    // No heartbeat from here on: the outcome's report carries the last lines, once.
    clearInterval(heartbeat)
    clearTimeout(timeLimit)
    // The live view ends before the outcome is told: a page that hears it finds nothing left to watch.
    await live?.close()
    const actions = progress.actions
    if (outcome.status === 'succeeded')
      progress.log('info', `Finished: ${actions} step${actions === 1 ? '' : 's'} in ${seconds(Date.now() - started)}.`)
    else progress.log('error', outcome.error)
    const stoppedAt = outcome.status === 'failed' && current > 0 ? { step: current, url: pageUrl() } : null
    if (trace && runFiles.saveTrace) progress.trace(await keepTrace(trace, runFiles.saveTrace, outcome.status === 'failed'))
    const finished = await progress.finish(outcome, extracted.rows(), rowOutcomes, stoppedAt, rowsRead ? rows : undefined)
    logger.info({ runId: run.id, workerId, status: outcome.status, ms: Date.now() - started }, 'cloud run finished')
    return cleanUp(finished ? outcome.status : 'stopped')

    /** The trace kept (or why not) as the run's file, counted in them (docs/decisions/060); null when not wanted. */
    function keepTrace(recorder: TraceRecorder, saveTrace: NonNullable<RunFiles['saveTrace']>, failed: boolean) {
      return recorder.finish({
        wanted: run.traceMode === 'always' || failed,
        hidden: secrets.hidden,
        room: store,
        save: (bytes) => saveTrace(run.id, bytes),
      })
    }

    async function cleanUp<T extends ExecutionResult>(result: T): Promise<T> {
      clearInterval(heartbeat)
      clearTimeout(timeLimit)
      signal?.removeEventListener('abort', onAbort)
      await live?.close()
      await session?.close()
      if (browser) browsers.release()
      return result
    }
  }

  return { execute }
}
