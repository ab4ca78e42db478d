import { setTimeout as sleep } from 'node:timers/promises'
import type { Locator } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import { IN_PAGE_CHANGING_STEPS } from '#common/page-changing-steps.ts'
import { describeStep, short } from '#common/step-log-words.ts'
import { isWorkflowStep } from '#common/workflow-words.ts'
import { performExtract } from './extract-action.ts'
import { isPlaywrightTimeout } from './playwright.ts'
import { settlePage, SETTLE } from './page-settle.ts'
import { cleanMessage, inPage, StepFailure, type StepContext } from './step-context.ts'
import { resolveTarget, targetName, whyUnresolved } from './target-resolver.ts'
import type { SecretTyping } from '#common/secret-typing.ts'
import { typeOnOwnSite } from './secret-typing.ts'
import { optionValue, typedValue } from './field-values.ts'
import { assertTextAbsent, performVerb, waitGone } from './verb-actions.ts'

export { describeStep, short }
export { cleanMessage, inPage, seconds, StepFailure, type Repair, type StepContext, type StepRepair } from './step-context.ts'

/** How long a repaired target has to find its element. */
const REPAIRED_LOOK_MS = 2_000

/**
 * The one element (`any`: every element) a step's target names, waited for. When no way of the
 * target finds it, self-repair may find the element it meant; a StepFailure says why not.
 */
async function element(
  context: StepContext,
  step: AutomationStep,
  target: Target,
  n: number,
  match: 'one' | 'any' = 'one',
): Promise<Locator> {
  const found = await resolveTarget(context.page, target, {
    timeoutMs: context.timeout(),
    match,
    signal: context.stopSignal,
    within: context.within,
  })
  if (!context.running()) throw new Error('stopped')
  if ('locator' in found) {
    context.onFound?.(found.used, found.index > 0 ? 'alternative' : null)
    if (found.index > 0)
      await context.onRepaired(n, target, {
        used: found.used,
        how: 'alternative',
        target: [found.used, ...target.filter((way) => way !== found.used)],
      })
    return found.locator
  }
  const repaired = context.repair ? await context.repair(context.page, step, target).catch(() => null) : null
  if (repaired && context.running()) {
    const again = await resolveTarget(context.page, repaired.target, { timeoutMs: REPAIRED_LOOK_MS, match, signal: context.stopSignal })
    if ('locator' in again) {
      context.onFound?.(again.used, repaired.how)
      await context.onRepaired(n, target, { used: again.used, how: repaired.how, target: repaired.target })
      return again.locator
    }
  }
  if (!context.running()) throw new Error('stopped')
  throw new StepFailure(whyUnresolved(target, found.counts, context.stepSeconds))
}

/**
 * A read of the page that a navigation under way interrupts (a click or a key sent a form a moment
 * before): read again once the new page is there, within the step's time.
 */
async function whileSettling<T>(context: StepContext, read: () => Promise<T>): Promise<T> {
  const until = Date.now() + context.timeout()
  for (;;) {
    try {
      return await read()
    } catch (error) {
      if (!/context was destroyed|navigat/i.test(String(error)) || Date.now() >= until || !context.running()) throw error
      await context.page.waitForLoadState('load', { timeout: Math.max(1, until - Date.now()) }).catch(() => {})
    }
  }
}

/** Steps after which a page may change (load, draw, send): the next step looks at it once it settled. */
const CHANGES_PAGE: ReadonlySet<AutomationStep['type']> = new Set([...IN_PAGE_CHANGING_STEPS, 'navigate', 'goBack', 'switchTab'])

/**
 * Performs one step on the run's page; throws StepFailure (the automation's fault) when it cannot.
 * After a step that may change the page, waits until the page settled (page-settle.ts), within
 * half the time the step had left, so the next step still has time of its own.
 */
export { element as findElement }

export async function performStep(
  context: StepContext,
  step: AutomationStep,
  n: number,
  options: { typing?: SecretTyping | null } = {},
): Promise<void> {
  await act(context, step, n, options)
  if (CHANGES_PAGE.has(step.type) && context.running()) {
    await settlePage(context.page, { maxMs: Math.min(SETTLE.maxMs, context.timeout() / 2), signal: context.stopSignal })
  }
}

async function act(context: StepContext, step: AutomationStep, n: number, options: { typing?: SecretTyping | null }): Promise<void> {
  const { page, stepSeconds } = context
  switch (step.type) {
    case 'navigate': {
      const verdict = await context.guard.checkUrl(step.url)
      if (!verdict.allowed) throw new StepFailure(verdict.reason)
      const before = context.blocked.length
      let response
      try {
        response = await page.goto(step.url, { timeout: context.timeout(), waitUntil: 'load' })
      } catch (error) {
        const hit = context.blocked.slice(before)[0]
        if (context.running() && hit && /ERR_(TUNNEL_CONNECTION_FAILED|BLOCKED_BY_CLIENT)/.test(String(error))) {
          throw new StepFailure(`the page led to ${short(hit.url)}: ${hit.reason}`)
        }
        if (!context.running() || !context.browserConnected()) throw error
        if (await isPlaywrightTimeout(error)) throw new StepFailure(`the page did not finish loading within ${stepSeconds}`)
        throw new StepFailure(`could not load ${short(step.url)}: ${cleanMessage(error)}`)
      }
      const landed = response?.url()
      const refused = landed ? context.blocked.slice(before).find((entry) => entry.url === landed) : undefined
      if (refused) throw new StepFailure(`the page led to ${short(refused.url)}: ${refused.reason}`)
      if (response && response.status() >= 400)
        context.progress.log('warn', `Step ${n} (navigate): the page answered ${response.status()}.`)
      return
    }
    case 'click': {
      const target = await element(context, step, step.target, n)
      await inPage(
        context,
        () => target.click({ timeout: context.timeout() }),
        () => `${targetName(step.target)} could not be clicked within ${stepSeconds} (it stayed disabled or covered)`,
      )
      return
    }
    case 'type': {
      const target = await element(context, step, step.target, n)
      if (options.typing) {
        const typing = options.typing
        const refusal = await inPage(
          context,
          () => typeOnOwnSite(target, step.text, typing, context.timeout()),
          () => `${targetName(step.target)} could not be filled within ${stepSeconds} (it stayed disabled or read-only)`,
        )
        if (refusal) throw new StepFailure(refusal)
        context.masked?.push(target)
        return
      }
      // A date or number field takes its own format ('5 December 2026' -> '2026-12-05').
      const text = await typedValue(target, step.text, context.timeout())
      await inPage(
        context,
        () => target.fill(text, { timeout: context.timeout() }),
        () => `${targetName(step.target)} could not be filled within ${stepSeconds} (it stayed disabled or read-only)`,
      )
      return
    }
    case 'select': {
      const target = await element(context, step, step.target, n)
      await inPage(
        context,
        async () => {
          const value = await optionValue(target, step.value, context.timeout())
          await target.selectOption(value === null ? step.value : { value }, { timeout: context.timeout() })
        },
        () => `${targetName(step.target)} offered no option "${step.value}" within ${stepSeconds}`,
      )
      return
    }
    case 'press': {
      if (!step.target) {
        await inPage(
          context,
          () => page.keyboard.press(step.key),
          () => `pressing ${step.key} took longer than ${stepSeconds}`,
        )
        return
      }
      const target = await element(context, step, step.target, n)
      await inPage(
        context,
        () => target.press(step.key, { timeout: context.timeout() }),
        () => `${targetName(step.target as Target)} could not take the ${step.key} key within ${stepSeconds}`,
      )
      return
    }
    case 'wait': {
      if (step.ms !== undefined) {
        await sleep(step.ms, undefined, { signal: context.stopSignal })
        return
      }
      if (step.target && step.gone) return waitGone(context, step.target)
      // Waiting for the results, say: any element the target matches is enough.
      if (step.target) await element(context, step, step.target, n, 'any')
      return
    }
    case 'extract': {
      const said = await performExtract(
        {
          page,
          timeout: context.timeout,
          running: context.running,
          stopSignal: context.stopSignal,
          log: (level, message) => context.progress.log(level, `Step ${n} (extract): ${message}`),
          find: (target) => element(context, step, target, n, 'any'),
          inPage: (call, what) =>
            inPage(
              context,
              () => whileSettling(context, call),
              () => `${what} took longer than ${stepSeconds}`,
            ),
          add: (field, values) => context.extracted.add(field, values),
          addRecords: (fields, records) => context.extracted.addRecords(fields, records),
        },
        step,
      )
      context.progress.log('info', `Step ${n} (extract): ${said}.`)
      return
    }
    case 'screenshot': {
      await context.takeScreenshot(n, step.name ?? `Step ${n}`, context.timeout())
      return
    }
    case 'assertText': {
      if (step.absent) return assertTextAbsent(context, step.text, step.target)
      // In the element, or in any of the elements its target matches (a list, say); else the page.
      const within = step.target ? await element(context, step, step.target, n, 'any') : page.locator('body')
      const until = Date.now() + context.timeout()
      let seen: string | null = null
      while (context.running()) {
        const texts = await within.allInnerTexts().catch(() => null)
        seen = texts?.find((text) => text.includes(step.text)) ?? texts?.[0] ?? null
        if (seen?.includes(step.text)) return
        if (Date.now() >= until) break
        await sleep(100, undefined, { signal: context.stopSignal })
      }
      if (!context.running()) throw new Error('stopped')
      throw new StepFailure(
        step.target
          ? `${targetName(step.target)} does not contain "${short(step.text, 80)}" (it reads "${short((seen ?? '').trim(), 120)}")`
          : `the page does not show "${short(step.text, 80)}" (waited ${stepSeconds})`,
      )
    }
    default:
      // Blocks and scripts need the run's rows and values: the executor runs them (docs/decisions/046).
      if (isWorkflowStep(step)) throw new Error(`a ${step.type} step is not a page action`)
      // Asking a person needs the run's live view: the executor does it (docs/decisions/059).
      if (step.type === 'askPerson') throw new Error('an askPerson step is not a page action')
      return performVerb(context, step, n, (target, match) => element(context, step, target, n, match))
  }
}
