import { setTimeout as sleep } from 'node:timers/promises'
import type { Locator, Page } from 'playwright-core'
import { columnCells } from '#common/column-cells.ts'
import { isPlaced, type Target, type TargetAlternative } from '#common/targets.ts'
import { targetName, whyUnresolved } from '#common/unresolved-target.ts'
import { insideContainer } from './container-locator.ts'

/**
 * Playwright's locator for one alternative of a target, visible elements only; inside its
 * container and at its position when it names them (`within`, `nth`: docs/decisions/042).
 */
export function locatorFor(page: Page, alternative: TargetAlternative): Locator {
  const own = ownLocator(page, alternative)
  if (!isPlaced(alternative)) return own
  const inside = alternative.within ? insideContainer(page, alternative.within, own) : own
  return alternative.nth === undefined ? inside : inside.nth(alternative.nth - 1)
}

/** The alternative inside `root` (a for-each's current item); a way that names its own container looks on the page. */
function locatorIn(page: Page, root: Page | Locator, alternative: TargetAlternative): Locator {
  return root === page || isPlaced(alternative) ? locatorFor(page, alternative) : ownLocator(root, alternative)
}

function ownLocator(page: Page | Locator, alternative: TargetAlternative): Locator {
  const exact = 'exact' in alternative ? alternative.exact : undefined
  const base = (() => {
    switch (alternative.by) {
      case 'role':
        return page.getByRole(alternative.role, alternative.name === undefined ? {} : { name: alternative.name, exact })
      case 'label':
        return page.getByLabel(alternative.text, { exact })
      case 'placeholder':
        return page.getByPlaceholder(alternative.text, { exact })
      case 'text':
        return page.getByText(alternative.text, { exact })
      case 'testId':
        return page.getByTestId(alternative.id)
      case 'column':
        return page.locator(`xpath=${columnCells(alternative.header, alternative.exact ?? false)}`)
      case 'css':
        return page.locator(alternative.selector)
      case 'xpath':
        return page.locator(`xpath=${alternative.path}`)
    }
  })()
  return base.filter({ visible: true })
}

export interface Resolved {
  locator: Locator
  /** Which alternative matched (0: the first, as written). */
  index: number
  used: TargetAlternative
}

export interface Unresolved {
  /** How many visible elements each alternative matched at the last look (-1: it could not be read). */
  counts: number[]
}

/** How long the first alternative has to appear before a later one may stand in for it. */
const FIRST_CHOICE_MS = 1_500
const POLL_MS = 100

/**
 * Finds a target's element the way every runner does (docs/decisions/019): the first alternative
 * that matches exactly one visible element (`any`: at least one, for extraction) wins. The page
 * may still be changing, so it looks again every 100 ms until the time is up; for the first
 * 1.5 s only the first alternative may win, so a later one stands in only when the first is really
 * gone (that is a repair, and the caller records it).
 */
export async function resolveTarget(
  page: Page,
  target: Target,
  options: {
    timeoutMs: number
    match: 'one' | 'any'
    signal?: AbortSignal
    /** Where to look first (a for-each's current item, docs/decisions/046); the page when nothing in it matches. */
    within?: Locator | null
  },
): Promise<Resolved | Unresolved> {
  const started = Date.now()
  const firstChoiceUntil = started + Math.min(FIRST_CHOICE_MS, options.timeoutMs / 3)
  const fits = (count: number) => (options.match === 'one' ? count === 1 : count >= 1)
  const roots: (Page | Locator)[] = options.within ? [options.within, page] : [page]
  let counts: number[] = []
  for (;;) {
    for (const root of roots) {
      counts = await Promise.all(
        target.map((alternative) =>
          locatorIn(page, root, alternative)
            .count()
            .catch(() => -1),
        ),
      )
      const index = counts.findIndex(fits)
      if (index === 0 || (index > 0 && Date.now() >= firstChoiceUntil)) {
        const used = target[index] as TargetAlternative
        return { locator: locatorIn(page, root, used), index, used }
      }
    }
    if (Date.now() - started >= options.timeoutMs || options.signal?.aborted) return { counts }
    await sleep(POLL_MS, undefined, { signal: options.signal }).catch(() => {})
  }
}

export { targetName, whyUnresolved }
