import type { AutomationStep } from './automation-steps.ts'

/**
 * Values a step names instead of holding them, filled in only when the step runs (never stored in
 * the steps, a run's log or anything a model sees):
 * - `{{secrets.shop_password}}`: a value of the workspace's vault;
 * - `{{totp.shop}}`: the current one-time code of a vault entry's TOTP secret;
 * - `{{input.search_term}}`: a value given when the run was started (a trigger, the API, "Run again").
 * A template's own inputs (`{{search_term}}`, no prefix) are filled when the template is used and
 * are not these.
 */
export const PLACEHOLDER_KINDS = ['secrets', 'totp', 'input'] as const
export type PlaceholderKind = (typeof PLACEHOLDER_KINDS)[number]

export interface Placeholder {
  kind: PlaceholderKind
  name: string
  /** As written in the step: '{{secrets.shop_password}}'. */
  text: string
}

/** A name a placeholder may use: a letter or _, then letters, digits or _ (at most 64). */
export const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
const PATTERN = /\{\{\s*(secrets|totp|input)\.([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g

/** The fields of a step that may hold placeholders: what is typed, chosen, opened or looked for. */
function textFields(step: AutomationStep): string[] {
  switch (step.type) {
    case 'navigate':
      return [step.url]
    case 'type':
      return [step.text]
    case 'select':
      return [step.value]
    case 'assertText':
      return [step.text]
    default:
      return []
  }
}

/** The placeholders a text names, in order, each once. */
export function placeholdersIn(text: string): Placeholder[] {
  const found = new Map<string, Placeholder>()
  for (const match of text.matchAll(PATTERN)) {
    const [whole, kind, name] = match as unknown as [string, PlaceholderKind, string]
    const key = `${kind}.${name}`
    if (!found.has(key)) found.set(key, { kind, name, text: whole })
  }
  return [...found.values()]
}

/** Every placeholder the steps name, each once ('secrets.a', 'input.b'…). */
export function placeholdersOf(steps: readonly AutomationStep[]): Placeholder[] {
  const found = new Map<string, Placeholder>()
  for (const step of steps) {
    for (const text of textFields(step)) {
      for (const placeholder of placeholdersIn(text)) found.set(`${placeholder.kind}.${placeholder.name}`, placeholder)
    }
  }
  return [...found.values()]
}

/**
 * The step with its placeholders filled by `valueOf` (which answers undefined for a value it does
 * not have: that placeholder is listed in `missing` and left as written). Only the fields
 * `placeholdersOf` reads are filled; targets never are.
 */
export function fillStep(
  step: AutomationStep,
  valueOf: (placeholder: Placeholder) => string | undefined,
): { step: AutomationStep; missing: Placeholder[] } {
  const missing: Placeholder[] = []
  const fill = (text: string) =>
    text.replace(PATTERN, (whole, kind: PlaceholderKind, name: string) => {
      const value = valueOf({ kind, name, text: whole })
      if (value === undefined) {
        missing.push({ kind, name, text: whole })
        return whole
      }
      return value
    })
  switch (step.type) {
    case 'navigate':
      return { step: { ...step, url: fill(step.url) }, missing }
    case 'type':
      return { step: { ...step, text: fill(step.text) }, missing }
    case 'select':
      return { step: { ...step, value: fill(step.value) }, missing }
    case 'assertText':
      return { step: { ...step, text: fill(step.text) }, missing }
    default:
      return { step, missing }
  }
}

/**
 * The text with every value in `hidden` replaced by the placeholder it came from, longest value
 * first (so a value inside another is not half-hidden): for anything a run writes down (log
 * lines, errors, extracted values) after secrets were typed. Values shorter than 3 characters are
 * not hidden: they would blank out ordinary words.
 */
export function hideValues(text: string, hidden: ReadonlyMap<string, string>): string {
  const values = [...hidden].filter(([value]) => value.length >= 3).sort(([a], [b]) => b.length - a.length)
  let result = text
  for (const [value, placeholder] of values) result = result.split(value).join(placeholder)
  return result
}
