import { setTimeout as sleep } from 'node:timers/promises'
import { errors, type Browser, type BrowserContext, type Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { RunLogLine, RunScreenshot } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'
import type { RunFiles } from './run-files.ts'
import type { RunOutcome, RunQueue } from './run-queue.ts'
import { MAX_EXTRACTED_ROWS, type Run } from './run.service.ts'
import { startGuardProxy, type GuardProxy } from './target-guard-proxy.ts'
import { createTargetGuard, guardRoutes, type BlockedRequest, type LookupAll, type PrivateTargetPolicy } from './target-guard.ts'

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
}

/** The shared browser: acquire() launches it when needed and throws when it cannot start. */
export interface BrowserSource {
  acquire(): Promise<Browser>
  release(): void
}

/**
 * How an execution ended: finished (succeeded or failed, stored), stopped (cancelled by the
 * member or the lease lost: the run is not ours any more) or aborted (our shutdown: the caller
 * gives the run back to the queue).
 */
export type ExecutionResult = 'succeeded' | 'failed' | 'stopped' | 'aborted'

const VIEWPORT = { width: 1280, height: 800 }
const MAX_VALUE_LENGTH = 10_000
const MAX_BLOCKED_LOG_LINES = 20
const FAILURE_SCREENSHOT_MS = 5_000

/** A step that did not work: the automation's fault (not refunded). The message names the cause. */
class StepFailure extends Error {}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`
const short = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** The first line of a Playwright error without its 'locator.click: ' prefix and call log. */
function cleanMessage(error: unknown): string {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
  return short(first.replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '').replace(/^Error: /, ''), 300)
}

function describeStep(step: AutomationStep): string {
  switch (step.type) {
    case 'navigate':
      return step.url
    case 'click':
      return step.selector
    case 'type':
      return `${step.selector} (${step.text.length} characters)`
    case 'select':
      return `${step.selector} = "${step.value}"`
    case 'wait':
      return step.ms !== undefined ? `${step.ms} ms` : (step.selector ?? '')
    case 'extract':
      return `${step.selector} -> ${step.field}${step.attribute ? ` (${step.attribute})` : ''}`
    case 'screenshot':
      return step.name ?? 'the page'
    case 'assertText':
      return `"${short(step.text, 80)}"${step.selector ? ` in ${step.selector}` : ' on the page'}`
  }
}

/**
 * Reads what an extract step asks for from every matching element (runs in the page). value,
 * href and src come from the element's property: the current value, the absolute address.
 */
function readElements(elements: Element[], attribute: string | null): (string | null)[] {
  return elements.map((element) => {
    if (!attribute) return ((element as HTMLElement).innerText ?? element.textContent ?? '').trim()
    if ((attribute === 'value' || attribute === 'href' || attribute === 'src') && attribute in element) {
      const value = (element as unknown as Record<string, unknown>)[attribute]
      if (typeof value === 'string') return value
    }
    return element.getAttribute(attribute)
  })
}

/**
 * Runs one cloud run's steps in a fresh browser context of the shared browser, reporting progress
 * under the worker's lease, and ends the run with its outcome. Rules of fault and refund:
 * docs/decisions/012-automations-credits-and-runs.md.
 *
 * Extracted data is a table: every extract step fills a column named by its field with the text
 * (or attribute) of every element its selector matches, in page order; row i holds the i-th value
 * of each column. One element per extract gives one row with all the fields; '.product .name' and
 * '.product .price' give one row per product. Extracting the same field again appends below.
 */
export function createStepExecutor(deps: {
  runQueue: Pick<RunQueue, 'progress' | 'finish'>
  runFiles: Pick<RunFiles, 'saveScreenshot' | 'screenshotName'>
  browsers: BrowserSource
  logger: Logger
  config: ExecutorConfig
}) {
  const { runQueue, runFiles, browsers, logger, config } = deps

  async function execute(run: Run, workerId: string, signal?: AbortSignal): Promise<ExecutionResult> {
    const started = Date.now()
    const deadline = started + config.timeLimitMs
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

    let actions = 0
    let restart = true
    let pending: { log: RunLogLine[]; screenshots: RunScreenshot[] } = { log: [], screenshots: [] }
    const columns = new Map<string, (string | null)[]>()
    const log = (level: RunLogLine['level'], message: string) =>
      pending.log.push({ at: new Date().toISOString(), level, message: short(message, 2000) })

    // Progress reports go one at a time (steps and the heartbeat both send them).
    let chain = Promise.resolve()
    const flush = () =>
      (chain = chain.then(async () => {
        if (state === 'stopped' || state === 'aborted') return
        const batch = pending
        pending = { log: [], screenshots: [] }
        try {
          const held = await runQueue.progress(run.id, workerId, {
            actionsPerformed: actions,
            log: batch.log,
            screenshots: batch.screenshots,
            restart,
          })
          restart = false
          if (!held) halt('stopped')
        } catch (error) {
          // The database did not answer: keep the lines for the next report. If it stays away the
          // lease runs out and another worker takes the run over.
          pending = { log: [...batch.log, ...pending.log], screenshots: [...batch.screenshots, ...pending.screenshots] }
          logger.warn({ err: error, runId: run.id }, 'cloud run: progress report failed')
        }
      }))

    const blocked: BlockedRequest[] = []
    const onBlocked = (request: BlockedRequest) => {
      blocked.push(request)
      if (blocked.length <= MAX_BLOCKED_LOG_LINES) log('warn', `Blocked a request to ${short(request.url)}: ${request.reason}.`)
      else if (blocked.length === MAX_BLOCKED_LOG_LINES + 1) log('warn', 'More requests were blocked; they are not listed.')
    }
    const guard = createTargetGuard({ policy: config.privateTargets, lookup: config.lookup })

    let browser: Browser | null = null
    let context: BrowserContext | null = null
    let proxy: GuardProxy | null = null
    let page: Page | null = null
    stop.signal.addEventListener('abort', () => void context?.close().catch(() => {}), { once: true })
    const heartbeat = setInterval(() => void flush(), config.heartbeatMs ?? 5_000)
    const timeLimit = setTimeout(() => halt('timed-out'), config.timeLimitMs)
    let screenshotCount = 0
    let label = 'Setup'
    let current = 0
    let outcome: RunOutcome

    /** Time a step may still take: its own limit, or what is left of the run's. */
    const timeout = () => Math.max(1, Math.min(config.stepTimeoutMs, deadline - Date.now()))
    const stepSeconds = seconds(config.stepTimeoutMs)

    /** A Playwright call inside a step: its errors are the automation's (a timeout says what). */
    async function inPage<T>(call: () => Promise<T>, onTimeout: () => string | Promise<string>): Promise<T> {
      try {
        return await call()
      } catch (error) {
        if (state !== 'running' || !browser?.isConnected()) throw error
        if (error instanceof errors.TimeoutError) throw new StepFailure(await onTimeout())
        throw new StepFailure(cleanMessage(error))
      }
    }

    async function present(target: Page, selector: string) {
      await inPage(
        () => target.locator(selector).first().waitFor({ state: 'attached', timeout: timeout() }),
        () => `no element matches "${selector}" within ${stepSeconds}`,
      )
    }

    async function takeScreenshot(target: Page, step: number, name: string, timeoutMs: number) {
      const png = await inPage(
        () => target.screenshot({ type: 'png', timeout: timeoutMs }),
        () => `the screenshot took longer than ${seconds(timeoutMs)}`,
      )
      screenshotCount += 1
      const file = runFiles.screenshotName(step, screenshotCount)
      await runFiles.saveScreenshot(run.id, file, png)
      pending.screenshots.push({ name, file, step })
    }

    async function runStep(target: Page, step: AutomationStep, n: number): Promise<void> {
      switch (step.type) {
        case 'navigate': {
          const verdict = await guard.checkUrl(step.url)
          if (!verdict.allowed) throw new StepFailure(verdict.reason)
          const before = blocked.length
          let response
          try {
            response = await target.goto(step.url, { timeout: timeout(), waitUntil: 'load' })
          } catch (error) {
            const hit = blocked.slice(before)[0]
            if (state === 'running' && hit && /ERR_(TUNNEL_CONNECTION_FAILED|BLOCKED_BY_CLIENT)/.test(String(error))) {
              throw new StepFailure(`the page led to ${short(hit.url)}: ${hit.reason}`)
            }
            if (state !== 'running' || !browser?.isConnected()) throw error
            if (error instanceof errors.TimeoutError) throw new StepFailure(`the page did not finish loading within ${stepSeconds}`)
            throw new StepFailure(`could not load ${short(step.url)}: ${cleanMessage(error)}`)
          }
          const landed = response?.url()
          const refused = landed ? blocked.slice(before).find((entry) => entry.url === landed) : undefined
          if (refused) throw new StepFailure(`the page led to ${short(refused.url)}: ${refused.reason}`)
          if (response && response.status() >= 400) log('warn', `Step ${n} (navigate): the page answered ${response.status()}.`)
          return
        }
        case 'click': {
          await present(target, step.selector)
          await inPage(
            () => target.locator(step.selector).first().click({ timeout: timeout() }),
            () =>
              `the element matching "${step.selector}" could not be clicked within ${stepSeconds} (it stayed hidden, disabled or covered)`,
          )
          return
        }
        case 'type': {
          await present(target, step.selector)
          await inPage(
            () => target.locator(step.selector).first().fill(step.text, { timeout: timeout() }),
            () =>
              `the element matching "${step.selector}" could not be filled within ${stepSeconds} (it stayed hidden, disabled or read-only)`,
          )
          return
        }
        case 'select': {
          await present(target, step.selector)
          await inPage(
            () => target.locator(step.selector).first().selectOption(step.value, { timeout: timeout() }),
            () => `"${step.selector}" offered no option "${step.value}" within ${stepSeconds}`,
          )
          return
        }
        case 'wait': {
          if (step.ms !== undefined) {
            await sleep(step.ms, undefined, { signal: stop.signal })
            return
          }
          const selector = step.selector ?? ''
          await inPage(
            () => target.locator(selector).first().waitFor({ state: 'visible', timeout: timeout() }),
            async () =>
              (await target
                .locator(selector)
                .count()
                .catch(() => 0))
                ? `the element matching "${selector}" stayed hidden for ${stepSeconds}`
                : `no element matches "${selector}" within ${stepSeconds}`,
          )
          return
        }
        case 'extract': {
          await present(target, step.selector)
          const values = await inPage(
            () => target.locator(step.selector).evaluateAll(readElements, step.attribute ?? null),
            () => `reading "${step.selector}" took longer than ${stepSeconds}`,
          )
          const column = columns.get(step.field) ?? []
          for (const value of values) {
            if (column.length >= MAX_EXTRACTED_ROWS) break
            column.push(value === null ? null : value.slice(0, MAX_VALUE_LENGTH))
          }
          columns.set(step.field, column)
          log('info', `Step ${n} (extract): ${values.length} value${values.length === 1 ? '' : 's'} for "${step.field}".`)
          return
        }
        case 'screenshot': {
          await takeScreenshot(target, n, step.name ?? `Step ${n}`, timeout())
          return
        }
        case 'assertText': {
          const until = Date.now() + timeout()
          let seen: string | null = null
          while (state === 'running') {
            seen = await (step.selector ? target.locator(step.selector).first() : target.locator('body'))
              .innerText({ timeout: 250 })
              .catch(() => null)
            if (seen?.includes(step.text)) return
            if (Date.now() >= until) break
            await sleep(100, undefined, { signal: stop.signal })
          }
          if (state !== 'running') throw new Error('stopped')
          if (step.selector && seen === null) throw new StepFailure(`no element matches "${step.selector}" within ${stepSeconds}`)
          throw new StepFailure(
            step.selector
              ? `"${step.selector}" does not contain "${short(step.text, 80)}" (it reads "${short((seen ?? '').trim(), 120)}")`
              : `the page does not show "${short(step.text, 80)}" (waited ${stepSeconds})`,
          )
        }
      }
    }

    try {
      log('info', `Running in the cloud${run.attempts > 1 ? ` (attempt ${run.attempts})` : ''}: ${run.steps.length} steps.`)
      await flush()
      try {
        browser = await browsers.acquire()
      } catch (error) {
        throw new BrowserUnavailable(cleanMessage(error))
      }
      proxy = await startGuardProxy(guard, onBlocked)
      context = await browser.newContext({
        // Every connection goes through the guard proxy (redirects, WebSockets, workers too).
        proxy: { server: proxy.url },
        viewport: VIEWPORT,
        serviceWorkers: 'block',
        acceptDownloads: false,
      })
      if (state !== 'running') await context.close()
      await context.route('**/*', guardRoutes(guard, onBlocked))
      page = await context.newPage()
      const target = page

      for (const [index, step] of run.steps.entries()) {
        const n = index + 1
        current = n
        label = `Step ${n} (${step.type})`
        if (state !== 'running') break
        if (actions >= config.maxActions) throw new StepFailure(`the run's action limit of ${config.maxActions} was reached`)
        log('info', `${label}: ${describeStep(step)}`)
        await runStep(target, step, n)
        actions += 1
        await flush()
      }
      if (state === 'running') outcome = { status: 'succeeded' }
      else throw new Error(state)
    } catch (error) {
      if (state === 'aborted' || state === 'stopped') {
        logger.info({ runId: run.id, workerId, state }, `cloud run ${state}`)
        return cleanUp(state)
      }
      if (state === 'timed-out' || Date.now() >= deadline) {
        outcome = {
          status: 'failed',
          error: `${label}: the run's time limit of ${seconds(config.timeLimitMs)} was reached`,
          ourFault: false,
        }
      } else if (error instanceof StepFailure) {
        outcome = { status: 'failed', error: `${label}: ${error.message}`, ourFault: false }
        if (page && !page.isClosed()) {
          await takeScreenshot(page, current, 'At failure', FAILURE_SCREENSHOT_MS).catch(() => {})
        }
      } else if (error instanceof BrowserUnavailable) {
        outcome = {
          status: 'failed',
          error: `The cloud browser could not start (${error.message}); the credit was refunded.`,
          ourFault: true,
        }
      } else if (browser && !browser.isConnected()) {
        outcome = { status: 'failed', error: `${label}: the cloud browser stopped unexpectedly; the credit was refunded.`, ourFault: true }
      } else {
        logger.error({ err: error, runId: run.id }, 'cloud run: unexpected error')
        outcome = { status: 'failed', error: `${label}: an internal error stopped the run; the credit was refunded.`, ourFault: true }
      }
    }

    // No heartbeat from here on: the outcome's report carries the last lines, once.
    clearInterval(heartbeat)
    clearTimeout(timeLimit)
    if (outcome.status === 'succeeded')
      log('info', `Finished: ${actions} step${actions === 1 ? '' : 's'} in ${seconds(Date.now() - started)}.`)
    else log('error', outcome.error)
    await chain
    let finished = null
    try {
      finished = await runQueue.finish(run.id, workerId, outcome, {
        actionsPerformed: actions,
        log: pending.log,
        screenshots: pending.screenshots,
        extracted: table(columns),
        restart,
      })
    } catch (error) {
      // The lease runs out and the run is taken up again (or failed and refunded).
      logger.warn({ err: error, runId: run.id }, 'cloud run: could not store the outcome')
    }
    logger.info({ runId: run.id, workerId, status: outcome.status, ms: Date.now() - started }, 'cloud run finished')
    return cleanUp(finished ? outcome.status : 'stopped')

    async function cleanUp<T extends ExecutionResult>(result: T): Promise<T> {
      clearInterval(heartbeat)
      clearTimeout(timeLimit)
      signal?.removeEventListener('abort', onAbort)
      await context?.close().catch(() => {})
      await proxy?.close().catch(() => {})
      if (browser) browsers.release()
      return result
    }
  }

  return { execute }
}

/** The browser did not start: our fault, refunded. */
class BrowserUnavailable extends Error {}

function table(columns: Map<string, (string | null)[]>): Record<string, string | null>[] {
  const fields = [...columns.keys()]
  const count = Math.min(MAX_EXTRACTED_ROWS, Math.max(0, ...[...columns.values()].map((column) => column.length)))
  return Array.from({ length: count }, (_, i) => Object.fromEntries(fields.map((field) => [field, columns.get(field)?.[i] ?? null])))
}

export type StepExecutor = ReturnType<typeof createStepExecutor>
