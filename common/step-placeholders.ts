import type { AutomationStep } from './automation-steps.ts'

/**
 * Values a step names instead of holding them, filled in only when the step runs (never stored in
 * the steps, a run's log or anything a model sees):
 * - `{{secrets.shop_password}}`: a value of the workspace's vault;
 * - `{{totp.shop}}`: the current one-time code of a vault entry's TOTP secret;
 * - `{{input.search_term}}`: a value given when the run was started (a trigger, the API, "Run again");
 * - `{{row.email}}`: the column of the run's data row a "for each row" block is on (docs/decisions/046);
 * - `{{value.total}}`: what an earlier script step of the run kept under that name.
 * A template's own inputs (`{{search_term}}`, no prefix) are filled when the template is used and
 * are not these.
 */
export const PLACEHOLDER_KINDS = ['secrets', 'totp', 'input', 'row', 'value'] as const
export type PlaceholderKind = (typeof PLACEHOLDER_KINDS)[number]

export interface Placeholder {
  kind: PlaceholderKind
  name: string
  /** As written in the step: '{{secrets.shop_password}}'. */
  text: string
}

/** Whether a placeholder stands for a vault value (a secret, or a TOTP secret's code), not a run's input. */
export const isVaultPlaceholder = (placeholder: Pick<Placeholder, 'kind'>) => placeholder.kind === 'secrets' || placeholder.kind === 'totp'

/** A name a placeholder may use: a letter or _, then letters, digits or _ (at most 64). */
export const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
const PATTERN = /\{\{\s*(secrets|totp|input|row|value)\.([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g

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
    case 'if':
    case 'repeat':
      return [step.text ?? '', step.value ?? '']
    case 'stop':
      return [step.message ?? '']
    case 'download':
      return [step.url ?? '']
    case 'upload':
      return [step.file]
    case 'readData':
    case 'writeData':
    case 'openFile':
      return [step.path]
    case 'moveFile':
    case 'copyFile':
      return [step.from, step.to]
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

/** Steps are shallow (step, target, way, text): nothing deeper is a step's field. */
const MAX_DEPTH = 6

/** Every string field of a value, with its path ('target.0.text'). */
function stringFields(value: unknown, path: string[] = [], depth = 0): { path: string[]; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }]
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return []
  if (Array.isArray(value)) return value.flatMap((item, index) => stringFields(item, [...path, String(index)], depth + 1))
  return Object.entries(value).flatMap(([name, item]) => stringFields(item, [...path, name], depth + 1))
}

/** What a field is, in the words of a refusal: 'the address', 'the element to find'. */
function fieldInWords(type: string, path: readonly string[]): string {
  const [field] = path
  if (field === 'target') return 'the description of the element to find'
  if (type === 'navigate' && field === 'url') return 'the address to open'
  if (type === 'select' && field === 'value') return 'the option to choose'
  if (type === 'assertText' && field === 'text') return 'the text to check for'
  if (type === 'extract' && field === 'field') return 'the name of an extracted value'
  if (type === 'extract' && field === 'attribute') return 'the attribute to read'
  if (type === 'screenshot' && field === 'name') return "the screenshot's name"
  return `its ${path.join('.')}`
}

export interface MisplacedSecret {
  /** The step's index in the list. */
  index: number
  /** The field below the step: 'url', 'target.0.text'. */
  field: string
  placeholder: Placeholder
  /** 'Step 2 (navigate): {{secrets.x}} may only be typed into a field (…), never placed in the address to open.' */
  message: string
}

/**
 * Vault placeholders anywhere but where a secret may go (docs/decisions/039): a secret is only
 * ever typed into a field, i.e. the text of a `type` step. In an address, a header, a target, an
 * option, an expected text, an extracted field or any other field, a value could leave for
 * another site or come back out of the page: such a step is refused when saved and, should one be
 * stored from before, when it runs. Every string of the step is read, whether filled or not.
 */
export function misplacedSecrets(steps: readonly unknown[]): MisplacedSecret[] {
  const found: MisplacedSecret[] = []
  steps.forEach((step, index) => {
    const type =
      typeof step === 'object' && step !== null && typeof (step as { type?: unknown }).type === 'string'
        ? (step as { type: string }).type
        : 'step'
    for (const field of stringFields(step)) {
      if (type === 'type' && field.path.length === 1 && field.path[0] === 'text') continue
      for (const placeholder of placeholdersIn(field.text).filter(isVaultPlaceholder)) {
        found.push({
          index,
          field: field.path.join('.'),
          placeholder,
          message: `Step ${index + 1} (${type}): ${placeholder.text} may only be typed into a field (the text of a type step), never placed in ${fieldInWords(type, field.path)}.`,
        })
      }
    }
  })
  return found
}

/**
 * A selector that tests an element's `value` attribute: CSS `[value…]` (any case, any namespace,
 * Playwright's `internal:attr=[value=…]` too), or an attribute name written with an escape; XPath
 * `@value`, `attribute::value`, or any attribute by wildcard (`@*`, `@node()`). A site that keeps
 * a field's attribute in step with what is typed (React does) would answer yes or no about it.
 */
const VALUE_ATTRIBUTE_CSS = /\[\s*(?:[-\w*]*\|)?\s*(?:value(?![-\w])|[^\]]*\\)/i
const VALUE_ATTRIBUTE_XPATH = /(?:@|attribute\s*::)\s*(?:[-\w.]+:)?(?:value(?![-\w.])|\*|node\s*\()/i
const readsValueAttribute = (selector: string) => VALUE_ATTRIBUTE_CSS.test(selector) || VALUE_ATTRIBUTE_XPATH.test(selector)

/** The first `type` step that types a vault value, with that placeholder; null when none does. */
function typedSecret(steps: readonly AutomationStep[]): { index: number; placeholder: Placeholder } | null {
  for (const [index, step] of steps.entries()) {
    if (step.type !== 'type') continue
    const [placeholder] = placeholdersIn(step.text).filter(isVaultPlaceholder)
    if (placeholder) return { index, placeholder }
  }
  return null
}

export interface SecretReadBack {
  /** The step's index in the list. */
  index: number
  /** The field below the step: 'attribute', 'target.0.selector'. */
  field: string
  /** 'Step 4 (extract): this automation types {{secrets.x}} (step 2), so …' */
  message: string
}

/**
 * Steps that would read what a field holds, in steps that type a vault value (docs/decisions/039,
 * amended): a value typed into a field and edited there (a Backspace) is no exact copy, and
 * masking hides exact copies only. An extract of the `value` attribute (the live value of an
 * input, any case) and a target that tests the value attribute are refused wherever they are
 * in the steps (the sign-in block included), when saved, when a run is queued and by the executor.
 * (Text does not show what an input or text area holds: innerText reads nothing of it.)
 */
export function secretReadBacks(steps: readonly AutomationStep[]): SecretReadBack[] {
  const typed = typedSecret(steps)
  if (!typed) return []
  const because = `this automation types ${typed.placeholder.text} (step ${typed.index + 1}), so no step may read what a field holds`
  const found: SecretReadBack[] = []
  steps.forEach((step, index) => {
    const where = `Step ${index + 1} (${step.type})`
    if (step.type === 'extract' && step.attribute?.trim().toLowerCase() === 'value') {
      found.push({
        index,
        field: 'attribute',
        message: `${where}: ${because}: extract the text of the page, not the attribute value.`,
      })
    }
    const target = 'target' in step ? step.target : undefined
    target?.forEach((way, n) => {
      const selector = way.by === 'css' ? way.selector : way.by === 'xpath' ? way.path : null
      if (selector === null || !readsValueAttribute(selector)) return
      found.push({
        index,
        field: `target.${n}.${way.by === 'css' ? 'selector' : 'path'}`,
        message: `${where}: ${because}: way ${n + 1} of its target tests the value attribute, which a site may keep in step with what is typed.`,
      })
    })
  })
  return found
}

/**
 * The step with its placeholders filled by `valueOf` (which answers undefined for a value it does
 * not have: that placeholder is listed in `missing` and left as written). Only the fields
 * `placeholdersOf` reads are filled; targets never are. One pass over the step's own text: a value
 * put in is never read for placeholders again (docs/decisions/039), so a run's inputs and the
 * vault's values are filled together, by one call.
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
    case 'if':
    case 'repeat':
      return {
        step: {
          ...step,
          ...(step.text === undefined ? {} : { text: fill(step.text) }),
          ...(step.value === undefined ? {} : { value: fill(step.value) }),
        },
        missing,
      }
    case 'stop':
      return { step: step.message === undefined ? step : { ...step, message: fill(step.message) }, missing }
    case 'download':
      return { step: step.url === undefined ? step : { ...step, url: fill(step.url) }, missing }
    case 'upload':
      return { step: { ...step, file: fill(step.file) }, missing }
    case 'readData':
    case 'writeData':
    case 'openFile':
      return { step: { ...step, path: fill(step.path) }, missing }
    case 'moveFile':
    case 'copyFile':
      return { step: { ...step, from: fill(step.from), to: fill(step.to) }, missing }
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
