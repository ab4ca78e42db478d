import { setTimeout as sleep } from 'node:timers/promises'
import type { Locator, Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import { short } from '#common/step-log-words.ts'
import type { Target } from '#common/targets.ts'
import { isPlaywrightTimeout } from './playwright.ts'
import { locatorFor, resolveTarget, targetName } from './target-resolver.ts'
import { cleanMessage, inPage, StepFailure, type StepContext } from './step-context.ts'

// The verb steps (common/verb-steps.ts) as the cloud and the local runner perform them with
// Playwright; step-actions.ts hands them over. Each sets a state or checks one, and says in words
// why it could not.

export type VerbStep = Extract<
  AutomationStep,
  { type: 'check' | 'hover' | 'doubleClick' | 'clear' | 'goBack' | 'scroll' | 'dialog' | 'switchTab' | 'assertChecked' | 'assertCount' }
>
export const VERB_STEP_TYPES: ReadonlySet<AutomationStep['type']> = new Set([
  'check',
  'hover',
  'doubleClick',
  'clear',
  'goBack',
  'scroll',
  'dialog',
  'switchTab',
  'assertChecked',
  'assertCount',
])

/** Finds the step's element as every step does (step-actions.ts: waiting, other ways, self-repair). */
export type FindElement = (target: Target, match?: 'one' | 'any') => Promise<Locator>

const POLL_MS = 100
/** How long a scroll step looks for its element before it scrolls on, and waits for more to load after a scroll. */
const LOOK_MS = 300
const DEFAULT_SCROLLS = 20

const ticked = (checked: boolean) => (checked ? 'ticked' : 'not ticked')

/**
 * How many visible elements the target matches: by its first way that matches any (as extraction
 * reads), 0 when none does.
 */
export async function visibleCount(page: Page, target: Target): Promise<{ count: number; locator: Locator | null }> {
  for (const alternative of target) {
    const locator = locatorFor(page, alternative)
    const count = await locator.count().catch(() => 0)
    if (count > 0) return { count, locator }
  }
  return { count: 0, locator: null }
}

/** Asks `read` again every 100 ms until `holds` or the step's time is up; the last value read. */
async function pollUntil<T>(
  context: StepContext,
  read: () => Promise<T>,
  holds: (value: T) => boolean,
): Promise<{ value: T; held: boolean }> {
  const until = Date.now() + context.timeout()
  for (;;) {
    const value = await read()
    if (holds(value)) return { value, held: true }
    if (Date.now() >= until || !context.running()) {
      if (!context.running()) throw new Error('stopped')
      return { value, held: false }
    }
    await sleep(POLL_MS, undefined, { signal: context.stopSignal })
  }
}

/** A check or assertion's Playwright error in words ('Not a checkbox or radio button'). */
function notCheckable(error: unknown, name: string): never {
  const message = cleanMessage(error)
  if (/not a checkbox|radio/i.test(message)) throw new StepFailure(`${name} is not a checkbox, radio button or switch`)
  throw new StepFailure(message)
}

async function scroll(context: StepContext, step: Extract<VerbStep, { type: 'scroll' }>) {
  const { page } = context
  const screen = async () => {
    const size = page.viewportSize() ?? { width: 1280, height: 800 }
    // The wheel over the middle of the page scrolls what is under it: the page, or the list a web app scrolls inside.
    await page.mouse.move(size.width / 2, size.height / 2)
    await page.mouse.wheel(0, size.height * 0.9)
  }
  if (!step.target) {
    await inPage(context, screen, () => `scrolling took longer than ${context.stepSeconds}`)
    return
  }
  const target = step.target
  const most = step.maxScrolls ?? DEFAULT_SCROLLS
  const until = Date.now() + context.timeout()
  for (let scrolled = 0; ; scrolled++) {
    const found = await resolveTarget(page, target, { timeoutMs: LOOK_MS, match: 'any', signal: context.stopSignal })
    if (!context.running()) throw new Error('stopped')
    if ('locator' in found) {
      await inPage(
        context,
        () => found.locator.first().scrollIntoViewIfNeeded({ timeout: context.timeout() }),
        () => `${targetName(target)} could not be scrolled into view within ${context.stepSeconds}`,
      )
      return
    }
    if (scrolled >= most || Date.now() >= until)
      throw new StepFailure(
        `${targetName(target)} did not appear after scrolling ${scrolled} screen${scrolled === 1 ? '' : 's'}${Date.now() >= until ? ` (${context.stepSeconds})` : ''}`,
      )
    await inPage(context, screen, () => `scrolling took longer than ${context.stepSeconds}`)
    await sleep(LOOK_MS, undefined, { signal: context.stopSignal })
  }
}

/** The next browser dialog gets this answer (one dialog: later ones are dismissed, as Playwright does unanswered). */
function armDialog(context: StepContext, step: Extract<VerbStep, { type: 'dialog' }>, n: number) {
  context.page.once('dialog', (dialog) => {
    const said = short(dialog.message().replace(/\s+/g, ' '), 120)
    context.progress.log(
      'info',
      `Step ${n} (dialog): ${step.action === 'accept' ? 'accepted' : 'dismissed'} the ${dialog.type()} “${said}”.`,
    )
    void (step.action === 'accept' ? dialog.accept(step.text) : dialog.dismiss()).catch(() => {})
  })
}

/** The newest tab or popup opened after the current one, waited for; the run goes on in it. */
async function switchTab(context: StepContext) {
  const { page } = context
  if (!context.switchPage) throw new StepFailure('this runner cannot go on in another tab')
  const { value } = await pollUntil(
    context,
    async () => {
      const all = page.context().pages()
      return { pages: all.slice(all.indexOf(page) + 1).filter((other) => !other.isClosed()) }
    },
    (value) => value.pages.length > 0,
  )
  const newest = value.pages.at(-1)
  if (!newest) throw new StepFailure(`no new tab or popup opened within ${context.stepSeconds}`)
  await newest.waitForLoadState('load', { timeout: context.timeout() }).catch(() => {})
  await newest.bringToFront().catch(() => {})
  context.switchPage(newest)
  context.progress.log('info', `Going on in the tab “${short(await newest.title().catch(() => ''), 80) || newest.url()}”.`)
}

/** Performs one verb step; throws StepFailure (the automation's fault) when it cannot. */
export async function performVerb(context: StepContext, step: VerbStep, n: number, find: FindElement): Promise<void> {
  const { page, stepSeconds } = context
  switch (step.type) {
    case 'check': {
      const box = await find(step.target)
      const name = targetName(step.target)
      try {
        await box.setChecked(step.checked, { timeout: context.timeout() })
      } catch (error) {
        if (!context.running() || !context.browserConnected()) throw error
        if (await isPlaywrightTimeout(error)) throw new StepFailure(`${name} could not be ${ticked(step.checked)} within ${stepSeconds}`)
        if (/did not change its state/i.test(String(error)))
          throw new StepFailure(`clicking ${name} did not make it ${ticked(step.checked)}`)
        if (/cannot uncheck radio/i.test(String(error))) throw new StepFailure(`${name} is a radio button: choose another option instead`)
        notCheckable(error, name)
      }
      return
    }
    case 'hover': {
      const element = await find(step.target)
      await inPage(
        context,
        () => element.hover({ timeout: context.timeout() }),
        () => `the pointer could not rest on ${targetName(step.target)} within ${stepSeconds} (it stayed covered)`,
      )
      return
    }
    case 'doubleClick': {
      const element = await find(step.target)
      await inPage(
        context,
        () => element.dblclick({ timeout: context.timeout() }),
        () => `${targetName(step.target)} could not be double-clicked within ${stepSeconds} (it stayed disabled or covered)`,
      )
      return
    }
    case 'clear': {
      const field = await find(step.target)
      await inPage(
        context,
        () => field.clear({ timeout: context.timeout() }),
        () => `${targetName(step.target)} could not be cleared within ${stepSeconds} (it stayed disabled or read-only)`,
      )
      return
    }
    case 'goBack': {
      const response = await inPage(
        context,
        () => page.goBack({ timeout: context.timeout(), waitUntil: 'load' }),
        () => `the previous page did not finish loading within ${stepSeconds}`,
      )
      // Before the first page a run opened there is only the browser's blank page: not a page to go back to.
      if (page.url() === 'about:blank') {
        await page.goForward({ timeout: context.timeout(), waitUntil: 'load' }).catch(() => null)
        throw new StepFailure('there is no previous page to go back to')
      }
      // Null: no page before this one, or a web app that changed its address without loading.
      if (response === null && !(await page.evaluate(() => history.length > 1).catch(() => false)))
        throw new StepFailure('there is no previous page to go back to')
      return
    }
    case 'scroll':
      return scroll(context, step)
    case 'dialog':
      armDialog(context, step, n)
      return
    case 'switchTab':
      return switchTab(context)
    case 'assertChecked': {
      const box = await find(step.target)
      const name = targetName(step.target)
      const seen = await pollUntil(
        context,
        () => box.isChecked({ timeout: context.timeout() }).catch((error: unknown) => notCheckable(error, name)),
        (checked) => checked === step.checked,
      )
      if (!seen.held) throw new StepFailure(`${name} is ${ticked(seen.value)} (waited ${stepSeconds})`)
      return
    }
    case 'assertCount': {
      const seen = await pollUntil(
        context,
        async () => (await visibleCount(page, step.target)).count,
        (count) => count === step.count,
      )
      if (!seen.held)
        throw new StepFailure(
          `${targetName(step.target)} matches ${seen.value} element${seen.value === 1 ? '' : 's'}, not ${step.count} (waited ${stepSeconds})`,
        )
      return
    }
  }
}

/** A wait step with `gone`: until no way of its target finds a visible element. */
export async function waitGone(context: StepContext, target: Target): Promise<void> {
  const seen = await pollUntil(
    context,
    async () => (await visibleCount(context.page, target)).count,
    (count) => count === 0,
  )
  if (!seen.held) throw new StepFailure(`${targetName(target)} was still there after ${context.stepSeconds}`)
}

/** An assertText step with `absent`: until the text is not shown (in the target's elements, or the page). */
export async function assertTextAbsent(context: StepContext, text: string, target: Target | undefined): Promise<void> {
  const read = async () => {
    const within = target ? (await visibleCount(context.page, target)).locator : context.page.locator('body')
    const texts = within ? await within.allInnerTexts().catch(() => [] as string[]) : []
    return texts.some((seen) => seen.includes(text))
  }
  const seen = await pollUntil(context, read, (shown) => !shown)
  if (seen.held) return
  throw new StepFailure(`${target ? targetName(target) : 'the page'} still shows "${short(text, 80)}" (waited ${context.stepSeconds})`)
}
