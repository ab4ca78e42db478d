import type { Page } from 'playwright-core'
import type { Target } from '#common/targets.ts'
import { locatorFor } from './target-resolver.ts'

// The part of the page a control shows, as a CSS path that finds exactly it — what a sentence reads
// next: 'in the Tags tab, read them' reads the tab's panel (WAI-ARIA tabs: the tabpanel its
// aria-controls names, else the nearest tabpanel beside its tab list); 'expand the Book schema and
// get its property names' reads what the control opened — one that says it is open now
// (aria-expanded) — the part it names with aria-controls, else the nearest box around it that holds
// more than the control itself.

/** The CSS path of the part the control shows, or null when it shows none (or the target finds no one control now). */
export async function shownPartSelector(page: Page, control: Target, kind: 'tab' | 'opened'): Promise<string | null> {
  // The control may have been drawn again since it was clicked: found by the first way that finds just it.
  for (const alternative of control) {
    const locator = locatorFor(page, alternative)
    if ((await locator.count().catch(() => 0)) !== 1) continue
    return locator.evaluate(partOf, kind).catch(() => null)
  }
  return null
}

// Runs in the page: no imports, no closures over Node values.
function partOf(control: Element, kind: 'tab' | 'opened'): string | null {
  const shown = (element: Element) => element.getBoundingClientRect().height > 0
  const textOf = (element: Element) => ((element as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim()
  const controlled = control.getAttribute('aria-controls')
  // Only a control that says it opened something opened a part (its aria-expanded, or that of the
  // one toggle in the heading it sits in, as page snapshots read it): a link leads elsewhere.
  const heading = control.closest('h1, h2, h3, h4, h5, h6, [role=heading]')
  const toggles = heading ? heading.querySelectorAll('[aria-expanded]') : []
  const expanded = control.getAttribute('aria-expanded') ?? (toggles.length === 1 ? toggles[0]?.getAttribute('aria-expanded') : null)
  if (kind === 'opened' && expanded !== 'true') return null
  let part: Element | null = controlled ? document.getElementById(controlled) : null
  for (let box = control.parentElement; !part && box && box !== document.body; box = box.parentElement) {
    if (kind === 'tab') part = [...box.querySelectorAll('[role=tabpanel]')].find((each) => !each.contains(control) && shown(each)) ?? null
    else if (textOf(box).length > textOf(control).length + 2) part = box
  }
  if (!part || !shown(part)) return null
  const steps: string[] = []
  for (let at: Element | null = part; at && at !== document.body; at = at.parentElement) {
    const parent: Element | null = at.parentElement
    const same = parent ? [...parent.children].filter((child) => child.tagName === at?.tagName) : []
    steps.unshift(`${at.tagName.toLowerCase()}${same.length > 1 ? `:nth-of-type(${same.indexOf(at) + 1})` : ''}`)
  }
  return ['body', ...steps].join(' > ')
}
