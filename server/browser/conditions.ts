import { setTimeout as sleep } from 'node:timers/promises'
import type { Locator } from 'playwright-core'
import { short } from '#common/step-log-words.ts'
import type { Target } from '#common/targets.ts'
import type { ConditionFields } from '#common/workflow-steps.ts'
import { resolveTarget, targetName } from './target-resolver.ts'
import { StepFailure, type StepContext } from './step-context.ts'

/**
 * How long a condition looks for what it asks about. The page settled after the step before, so
 * this is only for what is still being drawn; a condition that does not hold costs this long.
 */
const LOOK_MS = 1_000
const POLL_MS = 100

/** A number in a text the way people write them: '1,299.00', '€ 12', '-3.5 %'. */
export function numberIn(text: string): number | null {
  const match = /-?\d[\d,\s]*(?:\.\d+)?|-?\.\d+/.exec(text.replace(/\u00a0/g, ' '))
  if (!match) return null
  const value = Number(match[0].replace(/[,\s]/g, ''))
  return Number.isFinite(value) ? value : null
}

/**
 * Whether an if's condition (a repeat's "until") holds now (docs/decisions/046). Shown text and
 * elements are looked for briefly; without a target, text is looked for in the for-each's current
 * item when the step is in one (and it is still on the page), else on the whole page. Values are
 * compared as text (trimmed), or as numbers for above and below: a value that is no number fails
 * the step, saying so.
 */
export async function conditionHolds(
  context: StepContext,
  condition: ConditionFields,
  find: (target: Target) => Promise<Locator>,
): Promise<boolean> {
  const text = condition.text ?? ''
  switch (condition.when) {
    case 'textShown':
      return await textShown(context, text, condition.target)
    case 'textNotShown':
      return !(await textShown(context, text, condition.target))
    case 'elementShown':
      return await elementShown(context, condition.target as Target)
    case 'elementNotShown':
      return !(await elementShown(context, condition.target as Target))
    case 'fieldIs': {
      const field = await find(condition.target as Target)
      const value = await field
        .evaluate((element) =>
          element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement
            ? element.value
            : (element as HTMLElement).innerText,
        )
        .catch(() => null)
      if (value === null) throw new StepFailure(`${targetName(condition.target as Target)} could not be read`)
      return value.trim() === text.trim()
    }
    case 'valueIs':
      return (condition.value ?? '').trim() === text.trim()
    case 'valueContains':
      return (condition.value ?? '').includes(text)
    case 'valueAbove':
    case 'valueBelow': {
      const value = numberOf(condition.value ?? '', 'the value')
      const limit = numberOf(text, 'the number to compare with')
      return condition.when === 'valueAbove' ? value > limit : value < limit
    }
  }
}

function numberOf(text: string, what: string): number {
  const value = numberIn(text)
  if (value === null) throw new StepFailure(`${what} "${short(text, 60)}" is not a number`)
  return value
}

/** Polls `read` for up to LOOK_MS: true as soon as it answers true. */
async function seenWithin(context: StepContext, read: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + Math.min(LOOK_MS, context.timeout())
  for (;;) {
    if (await read()) return true
    if (Date.now() >= until || !context.running()) return false
    await sleep(POLL_MS, undefined, { signal: context.stopSignal }).catch(() => {})
  }
}

async function textShown(context: StepContext, text: string, target: Target | undefined): Promise<boolean> {
  const where = async (): Promise<Locator[]> => {
    if (target) {
      const found = await resolveTarget(context.page, target, { timeoutMs: 1, match: 'any', within: context.within })
      return 'locator' in found ? [found.locator] : []
    }
    const item = context.within && (await context.within.count().catch(() => 0)) > 0 ? context.within : null
    return [item ?? context.page.locator('body')]
  }
  return seenWithin(context, async () => {
    for (const within of await where()) {
      const texts = await within.allInnerTexts().catch(() => [] as string[])
      if (texts.some((seen) => seen.includes(text))) return true
    }
    return false
  })
}

async function elementShown(context: StepContext, target: Target): Promise<boolean> {
  return seenWithin(context, async () => {
    const found = await resolveTarget(context.page, target, { timeoutMs: 1, match: 'any', within: context.within })
    return 'locator' in found
  })
}
