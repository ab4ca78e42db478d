import { setTimeout as sleep } from 'node:timers/promises'
import type { Locator, Page } from 'playwright-core'
import type { AutomationStep, ExtractField } from '#common/automation-steps.ts'
import { MAX_EXTRACTED_ROWS } from '#common/automations.ts'
import { columnCellOfRow } from '#common/column-cells.ts'
import type { ExtractedRecord } from '#common/extracted-table.ts'
import { extractedInWords } from '#common/step-log-words.ts'
import type { Target, TargetAlternative } from '#common/targets.ts'
import { locatorFor, resolveTarget, targetName } from './target-resolver.ts'

type ExtractStep = Extract<AutomationStep, { type: 'extract' }>

const MAX_VALUE_LENGTH = 10_000
/** How long a page after the first has to show the next control before the last page is taken as read. */
const NEXT_LOOK_MS = 2_000

/** What an extract step needs of its run (step-actions.ts gives it). */
export interface ExtractRun {
  page: Page
  timeout(): number
  running(): boolean
  stopSignal: AbortSignal
  log(level: 'info' | 'warn', message: string): void
  /** The elements a target names, waited for, repaired if need be; throws StepFailure when none. */
  find(target: Target): Promise<Locator>
  /** A Playwright call inside the step: its errors become the step's failure, `what` naming a timeout. */
  inPage<T>(call: () => Promise<T>, what: string): Promise<T>
  add(field: string, values: (string | null)[]): void
  addRecords(fields: string[], records: ExtractedRecord[]): void
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

const cut = (value: string | null) => (value === null ? null : value.slice(0, MAX_VALUE_LENGTH))

/** A part's elements inside one item: a column's cell in a row, or the alternative's matches within it. */
function partIn(page: Page, item: Locator, alternative: TargetAlternative): Locator {
  if (alternative.by === 'column') return item.locator(`xpath=${columnCellOfRow(alternative.header, alternative.exact ?? false)}`)
  return item.locator(locatorFor(page, alternative))
}

/** One field of one item: the first match of the part's first alternative that finds any, or null. */
async function readField(page: Page, item: Locator, field: ExtractField): Promise<string | null> {
  const attribute = field.attribute ?? null
  if (!field.part) return cut((await item.evaluateAll(readElements, attribute))[0] ?? null)
  for (const alternative of field.part) {
    const values = await partIn(page, item, alternative)
      .evaluateAll(readElements, attribute)
      .catch(() => [])
    if (values.length) return cut(values[0] ?? null)
  }
  return null
}

/** Every item as a record; an item none of whose fields has a value (a header row) gives none. */
async function readRecords(page: Page, items: Locator, fields: ExtractField[]): Promise<ExtractedRecord[]> {
  const count = Math.min(await items.count(), MAX_EXTRACTED_ROWS)
  const records = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const item = items.nth(index)
      const values = await Promise.all(fields.map((field) => readField(page, item, field)))
      return Object.fromEntries(fields.map((field, at) => [field.name, values[at] ?? null])) as ExtractedRecord
    }),
  )
  return records.filter((record) => Object.values(record).some((value) => value !== null && value !== ''))
}

/** What the items show now, to tell the next page from this one. */
const shownBy = (items: Locator) =>
  items
    .allInnerTexts()
    .then((texts) => texts.slice(0, 20).join('\n'))
    .catch(() => null)

/**
 * Goes to the next page by its control: false when there is none (or it is disabled: the last
 * page), or the items did not change within the step's time after the click.
 */
async function nextPage(run: ExtractRun, next: Target, items: Locator, before: string | null, seen: Set<string | null>): Promise<boolean> {
  const found = await resolveTarget(run.page, next, {
    timeoutMs: Math.min(NEXT_LOOK_MS, run.timeout()),
    match: 'one',
    signal: run.stopSignal,
  })
  if (!('locator' in found)) return false
  const control = found.locator
  const disabled = await control
    .evaluate(
      (element) =>
        (element as HTMLButtonElement).disabled === true ||
        element.closest('[aria-disabled="true"], [disabled], .disabled') !== null ||
        element.getAttribute('aria-current') === 'page',
    )
    .catch(() => true)
  if (disabled) return false
  await run.inPage(() => control.click({ timeout: run.timeout() }), 'clicking the next page control')
  const until = Date.now() + run.timeout()
  while (run.running() && Date.now() < until) {
    const now = await shownBy(items)
    if (now && now !== before) {
      // Items seen before: the control led back (a fallback found Previous, the pages wrap around).
      if (seen.has(now)) return false
      await run.page.waitForLoadState('load', { timeout: Math.max(1, until - Date.now()) }).catch(() => {})
      return true
    }
    await sleep(100, undefined, { signal: run.stopSignal }).catch(() => {})
  }
  run.log('warn', 'the next page control showed no new items; the pages read so far are kept.')
  return false
}

/**
 * An extract step (docs in common/automation-steps.ts): the values of every element its target
 * matches, or with `fields` one record per element; with `pages`, on this page and on each page
 * its next control leads to, until there is none, the items stop changing, or `max` pages.
 */
export async function performExtract(run: ExtractRun, step: ExtractStep): Promise<string> {
  const max = step.pages?.max ?? 1
  let read = 0
  let pages = 0
  const seen = new Set<string | null>()
  for (;;) {
    const items = await run.find(step.target)
    const before = await shownBy(items)
    seen.add(before)
    const fields = step.fields
    if (fields) {
      const records = await run.inPage(() => readRecords(run.page, items, fields), `reading ${targetName(step.target)}`)
      run.addRecords(
        fields.map((field) => field.name),
        records,
      )
      read += records.length
    } else {
      const values = await run.inPage(() => items.evaluateAll(readElements, step.attribute ?? null), `reading ${targetName(step.target)}`)
      run.add(step.field, values.map(cut))
      read += values.length
    }
    pages++
    if (!step.pages || pages >= max || !run.running()) break
    if (!(await nextPage(run, step.pages.next, items, before, seen))) break
  }
  return extractedInWords(step, read, pages)
}
