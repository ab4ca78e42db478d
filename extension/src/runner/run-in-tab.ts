import { ASK_PERSON_IN_THE_CLOUD } from '#common/person-help.ts'
import { browser } from 'wxt/browser'
import type { AutomationStep } from '#common/automation-steps.ts'
import { IN_PAGE_CHANGING_STEPS } from '#common/page-changing-steps.ts'
import { namesVaultValues, openDeviceVault } from '#common/device-vault.ts'
import type { RunSecrets } from '#common/run-secrets.ts'
import type { Placeholder } from '#common/step-placeholders.ts'
import { STEP_SHOT_QUALITY } from '#common/run-steps.ts'
import {
  fetchRunVault,
  reportFinish,
  reportProgress,
  uploadScreenshot,
  uploadStepPicture,
  type StartedRun,
} from '../aether-api/runs-api.ts'
import { requestsLeft } from '../aether-api/api-client.ts'
import { messageForError } from '../sidepanel/api-errors.ts'
import type { RunnerMessage } from '../messages.ts'
import type { Connection } from '../storage/stored-items.ts'
import { DOM_QUIET } from './dom-quiet.ts'
import { PAGE_STEP_TYPES, type PageAnswer, type PageStep, type SecretTypeStep } from './page-actions.ts'
import { runSteps, StepFailure, type ExtractRead, type Outcome, type Progress } from './step-loop.ts'

// The platform's limits when the automation names none (the server's defaults: RUN_TIME_LIMIT_MS,
// RUN_MAX_ACTIONS, RUN_STEP_TIMEOUT_MS).
const TIME_LIMIT_MS = 120_000
const MAX_ACTIONS = 1000
const STEP_TIMEOUT_MS = 15_000
const POLL_MS = 150
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`

/** Waits until the tab has loaded its page (a click may have just started loading another). */
async function loaded(tabId: number, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs
  while ((await browser.tabs.get(tabId)).status !== 'complete') {
    if (Date.now() >= until) throw new StepFailure(`${what} did not finish loading within ${seconds(timeoutMs)}`)
    await sleep(POLL_MS)
  }
}

async function navigate(tabId: number, url: string, timeoutMs: number) {
  await browser.tabs.update(tabId, { url })
  const until = Date.now() + timeoutMs
  // The tab says 'loading' once the new address is on its way; until then it may still say 'complete'.
  for (let tab = await browser.tabs.get(tabId); tab.status === 'complete' && tab.url !== url && Date.now() < until - 1000;) {
    await sleep(50)
    tab = await browser.tabs.get(tabId)
  }
  await loaded(tabId, Math.max(1, until - Date.now()), url)
}

/** Goes back one page in the tab's history. */
async function goBack(tabId: number, timeoutMs: number) {
  const before = (await browser.tabs.get(tabId)).url
  await browser.tabs.goBack(tabId).catch(() => {
    throw new StepFailure('there is no previous page to go back to')
  })
  const until = Date.now() + timeoutMs
  for (let tab = await browser.tabs.get(tabId); tab.status === 'complete' && tab.url === before && Date.now() < until - 1000;) {
    await sleep(50)
    tab = await browser.tabs.get(tabId)
  }
  await loaded(tabId, Math.max(1, until - Date.now()), 'The previous page')
}

/** The newest tab the run's tab opened (a link to a new tab, a popup), waited for. */
async function newestOpened(tabId: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const opened = (await browser.tabs.query({})).filter((tab) => tab.openerTabId === tabId && tab.id !== undefined)
    const newest = opened.sort((a, b) => (a.id ?? 0) - (b.id ?? 0)).at(-1)
    if (newest?.id !== undefined) {
      await browser.tabs.update(newest.id, { active: true })
      await loaded(newest.id, Math.max(1, until - Date.now()), 'The new tab')
      return newest.id
    }
    if (Date.now() >= until) throw new StepFailure(`no new tab or popup opened within ${seconds(timeoutMs)}`)
    await sleep(POLL_MS)
  }
}

/** Sends the step to the tab's top page; asks again while the page is changing (no runner answering yet). */
async function inPage(tabId: number, step: PageStep, timeoutMs: number): Promise<Omit<Extract<PageAnswer, { ok: true }>, 'ok'>> {
  const until = Date.now() + timeoutMs
  for (;;) {
    await loaded(tabId, Math.max(1, until - Date.now()), 'The page')
    const message: RunnerMessage = { type: 'runner/perform', step, timeoutMs: Math.max(1, until - Date.now()) }
    const answer = (await browser.tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => null)) as PageAnswer | null
    if (answer?.ok) return answer
    if (answer) throw answer.failure ? new StepFailure(answer.error) : new Error(answer.error)
    if (Date.now() >= until) throw new StepFailure(`the page did not answer within ${seconds(timeoutMs)} (is it an http or https page?)`)
    await sleep(POLL_MS * 2)
  }
}

/**
 * After a step that may change the page: until the page's elements stopped changing (what the
 * step made the app draw), bounded. A page that is loading or has no runner yet answers nothing:
 * the next step waits for it to load anyway.
 */
async function settle(tabId: number, maxMs: number) {
  const message: RunnerMessage = { type: 'runner/settle', maxMs: Math.min(DOM_QUIET.maxMs, maxMs) }
  await browser.tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => null)
}

type ExtractStep = Extract<AutomationStep, { type: 'extract' }>

/**
 * An extract step on every page (as the cloud's, server/browser/extract-action.ts): this page
 * read, then the next control clicked in the page and the items read again once they differ
 * from every page read so far — until there is no next control, it is disabled, the items stop
 * changing or come round again, or the step's `max` pages were read.
 */
async function extractEveryPage(tabId: number, step: ExtractStep, timeoutMs: number): Promise<ExtractRead> {
  const { pages, ...onePage } = step
  const seen = new Set<string>()
  const sign = (read: ExtractRead) => JSON.stringify(read.records ?? read.values ?? [])
  const reads: ExtractRead[] = []
  let read: ExtractRead | null = await inPage(tabId, onePage, timeoutMs)
  while (read) {
    reads.push(read)
    seen.add(sign(read))
    if (!pages || reads.length >= pages.max) break
    const { moved } = await inPage(tabId, { type: 'nextPage', next: pages.next }, timeoutMs)
    if (!moved) break
    const last = sign(read)
    const until = Date.now() + timeoutMs
    read = null
    while (Date.now() < until) {
      await sleep(POLL_MS)
      const again = await inPage(tabId, onePage, Math.max(1, until - Date.now())).catch(() => null)
      if (!again || sign(again) === last) continue
      read = seen.has(sign(again)) ? null : again
      break
    }
  }
  return {
    ...(step.fields ? { records: reads.flatMap((one) => one.records ?? []) } : { values: reads.flatMap((one) => one.values ?? []) }),
    pages: reads.length,
  }
}

/**
 * What the tab shows, with the fields given vault values masked while it is taken (as the cloud
 * masks them); null when the tab is not the one its window shows (the browser takes only what a
 * window shows, and another tab's page is not the run's to picture).
 */
async function captureTab(tabId: number, options: { format: 'png' } | { format: 'jpeg'; quality: number }): Promise<Blob | null> {
  const tab = await browser.tabs.get(tabId)
  if (!tab.active) return null
  const mask = (on: boolean): Promise<unknown> =>
    browser.tabs.sendMessage(tabId, { type: 'runner/mask', on } satisfies RunnerMessage, { frameId: 0 }).catch(() => null)
  await mask(true)
  const dataUrl = await browser.tabs.captureVisibleTab(tab.windowId, options).finally(() => mask(false))
  // Switched away meanwhile: the picture may be of another tab.
  if (!(await browser.tabs.get(tabId)).active) return null
  return (await fetch(dataUrl)).blob()
}

/** A screenshot step's picture of the tab, uploaded as the run's. */
async function screenshot(connection: Connection, runId: string, tabId: number, n: number, name: string) {
  const png = await captureTab(tabId, { format: 'png' })
  if (!png) throw new StepFailure('the run’s tab was not the one its window showed, so no screenshot could be taken')
  await uploadScreenshot(connection, runId, n, name, png)
}

/** Requests a run leaves the member's other uses of the API (the panel, the website) before it takes step pictures. */
const PICTURES_SPARE = 15

/** The timeline's picture after a step (docs/decisions/057): the tab at half its size, as the cloud's. */
async function stepPicture(tabId: number): Promise<Blob | null> {
  const full = await captureTab(tabId, { format: 'jpeg', quality: STEP_SHOT_QUALITY })
  if (!full) return null
  const bitmap = await createImageBitmap(full)
  const canvas = new OffscreenCanvas(Math.max(1, Math.round(bitmap.width / 2)), Math.max(1, Math.round(bitmap.height / 2)))
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
  bitmap.close()
  return canvas.convertToBlob({ type: 'image/jpeg', quality: STEP_SHOT_QUALITY / 100 })
}

/** Why a placeholder could not be filled, as the cloud's failed step says it. */
const notFilled = (missing: Placeholder) =>
  `${missing.text} could not be filled: the vault has no ${missing.kind === 'totp' ? 'TOTP secret' : 'secret'} named ${missing.name}`

/**
 * The vault values the run types, sealed to this browser's key by the server and opened here, in
 * memory only (docs/decisions/048); the run's steps as written, filled with its inputs and the
 * values in one pass just before each step runs.
 */
async function vaultOf(connection: Connection, run: StartedRun): Promise<{ steps: AutomationStep[]; secrets: RunSecrets }> {
  return openDeviceVault(await fetchRunVault(connection, run.id), run, {
    id: connection.device.id,
    privateKey: connection.privateKey,
    noKey: 'This browser was connected before it kept a key for vault values: disconnect it and connect it again.',
  })
}

/** The outcome with every vault value the run used put back as its placeholder. */
function hidden<T extends Progress & { error?: string; extracted?: Record<string, string | null>[] }>(
  report: T,
  hide: (text: string) => string,
): T {
  return {
    ...report,
    log: report.log.map((line) => ({ ...line, message: hide(line.message) })),
    ...(report.error !== undefined ? { error: hide(report.error) } : {}),
    steps: report.steps.map((step) => ({
      ...step,
      words: hide(step.words),
      error: step.error === null ? null : hide(step.error),
      extracted: step.extracted && {
        ...step.extracted,
        rows: step.extracted.rows.map((row) =>
          Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value === null ? null : hide(value)])),
        ),
      },
    })),
    ...(report.extracted
      ? {
          extracted: report.extracted.map((row) =>
            Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value === null ? null : hide(value)])),
          ),
        }
      : {}),
  }
}

/**
 * Runs a client run in one tab of this browser: navigation and screenshots through the tabs API,
 * the other steps by the runner content script in the page (runner/page-actions.ts), the loop
 * and its rules in step-loop.ts. Reports progress after each step and the outcome at the end,
 * so Run History shows the run live.
 */
export async function runInTab(
  connection: Connection,
  run: StartedRun,
  startTab: number,
  options: { cancelled: () => boolean; onStep: (n: number) => void },
): Promise<Outcome> {
  let tabId = startTab
  let vault: { steps: AutomationStep[]; secrets: RunSecrets } | null = null
  if (namesVaultValues(run.steps)) {
    try {
      vault = await vaultOf(connection, run)
    } catch (error) {
      const why = await messageForError(error)
      const outcome: Outcome = {
        status: 'failed',
        error: `The vault values this run types did not reach this browser: ${why}`,
        actionsPerformed: 0,
        log: [],
        steps: [],
        extracted: [],
      }
      await reportFinish(connection, run.id, outcome)
      return outcome
    }
    const { refusal } = vault.secrets
    if (refusal) {
      const outcome: Outcome = {
        status: 'failed',
        error: `Step ${refusal.index + 1} (${run.steps[refusal.index]?.type}): ${refusal.message}`,
        actionsPerformed: 0,
        log: [],
        steps: [],
        extracted: [],
      }
      await reportFinish(connection, run.id, outcome)
      return outcome
    }
  }
  const hide = (text: string) => vault?.secrets.hide(text) ?? text
  /** The step as it runs: the one the run shows, or (typing vault values) the one as written, filled in one pass. */
  const filled = async (step: AutomationStep, n: number): Promise<AutomationStep> => {
    const asWritten = vault?.steps[n - 1]
    if (!vault || !asWritten || !namesVaultValues([asWritten])) return step
    const done = await vault.secrets.fill(asWritten, run.inputs)
    const [missing] = done.missing
    if (missing) throw new StepFailure(notFilled(missing))
    if (!done.typing || done.step.type !== 'type') return done.step
    const typing: SecretTypeStep = { ...done.step, typing: done.typing }
    return typing
  }
  const perform = async (shown: AutomationStep, n: number, timeoutMs: number) => {
    options.onStep(n)
    const step = await filled(shown, n)
    const started = Date.now()
    // Half what the step had left at most, so the next step still has time of its own.
    const settleAfter = () => settle(tabId, (timeoutMs - (Date.now() - started)) / 2)
    if (step.type === 'navigate') return navigate(tabId, step.url, timeoutMs).then(settleAfter)
    if (step.type === 'goBack') return goBack(tabId, timeoutMs).then(settleAfter)
    if (step.type === 'switchTab') {
      tabId = await newestOpened(tabId, timeoutMs)
      return settleAfter()
    }
    // A page's script cannot answer the browser's own dialogs from the extension: the cloud and the local runner can.
    if (step.type === 'dialog')
      throw new StepFailure("the extension cannot answer the browser's dialogs: run this automation in the cloud or on your computer")
    if (step.type === 'askPerson') throw new StepFailure(ASK_PERSON_IN_THE_CLOUD)
    if (step.type === 'wait' && step.ms !== undefined) return sleep(step.ms)
    if (step.type === 'screenshot') return screenshot(connection, run.id, tabId, n, step.name ?? `Step ${n}`)
    if (step.type === 'extract') return extractEveryPage(tabId, step, timeoutMs)
    if (PAGE_STEP_TYPES.includes(step.type)) {
      await inPage(tabId, step as PageStep, timeoutMs).catch((error: unknown) => {
        throw error instanceof Error ? Object.assign(error, { message: hide(error.message) }) : error
      })
      if (IN_PAGE_CHANGING_STEPS.includes(step.type)) await settleAfter()
    }
  }
  let shots = 0
  const picture = async (n: number): Promise<string | null> => {
    // Pictures only while the API's rate limit leaves room for the run's own reports (one a step, and the outcome).
    const left = requestsLeft()
    if (left !== null && left <= run.steps.length - n + PICTURES_SPARE) return null
    const jpeg = await stepPicture(tabId)
    if (!jpeg) return null
    shots += 1
    return uploadStepPicture(connection, run.id, n, shots, jpeg)
  }
  const outcome = await runSteps(
    {
      steps: run.steps,
      timeLimitMs: Math.min(TIME_LIMIT_MS, (run.timeLimitSeconds ?? Infinity) * 1000),
      maxActions: Math.min(MAX_ACTIONS, run.stepLimit ?? Infinity),
      stepTimeoutMs: STEP_TIMEOUT_MS,
    },
    {
      perform,
      picture,
      report: (progress) => reportProgress(connection, run.id, hidden(progress, hide)),
      sleep,
      now: () => Date.now(),
      cancelled: options.cancelled,
    },
  )
  const reported = hidden(outcome, hide)
  await reportFinish(connection, run.id, reported)
  return reported
}
