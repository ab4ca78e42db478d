import { parseSteps, upgradeStep, type AutomationStep, type StepIssue } from './automation-steps.ts'
import { stepInWords } from './step-words.ts'
import { MAX_INPUT_VALUE_LENGTH, type TemplateInput } from './templates.ts'

/**
 * A template's steps (docs/decisions/022): checked when the admin saves them, filled with a
 * member's values when they use the template, described in words for the gallery.
 *
 * Values go into strings only, in one pass over the template's own text: a value is never read
 * for placeholders again (a value `{{other}}` stays those characters), never becomes a key or
 * a step type, and the filled steps are checked by the step schema like any automation's.
 */

/** `{{search_term}}` */
const PLACEHOLDER = /\{\{([a-z][a-z0-9_]{0,39})\}\}/g
/** Fields a value may not stand in for: what kind of step or way it is, and the fixed choices. */
const FIXED_FIELDS = new Set(['type', 'by', 'role', 'key'])
/** Steps are shallow (step, target, way, text): nothing deeper is a step's field, so nothing deeper is walked. */
const MAX_DEPTH = 6

type Issue = StepIssue

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The value with `map` applied to every string field (its key given), as new arrays and objects. */
function mapStrings(value: unknown, map: (text: string, key: string) => string, key = '', depth = 0): unknown {
  if (typeof value === 'string') return map(value, key)
  if (depth >= MAX_DEPTH) return value
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map, key, depth + 1))
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, mapStrings(item, map, name, depth + 1)]))
  return value
}

/** Every string field of a step with its path below the step ('target.0.text'). */
function stringFields(value: unknown, path: string[] = [], depth = 0): { path: string[]; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }]
  if (depth >= MAX_DEPTH) return []
  if (Array.isArray(value)) return value.flatMap((item, index) => stringFields(item, [...path, String(index)], depth + 1))
  if (isRecord(value)) return Object.entries(value).flatMap(([name, item]) => stringFields(item, [...path, name], depth + 1))
  return []
}

const namesIn = (text: string) => [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '')

/** The steps with every `{{name}}` replaced by its value (one pass; unknown names stay as written). */
export function fillSteps(steps: readonly unknown[], values: ReadonlyMap<string, string>): unknown[] {
  const fill = (text: string, key: string) =>
    FIXED_FIELDS.has(key) ? text : text.replace(PLACEHOLDER, (whole, name: string) => values.get(name) ?? whole)
  return steps.map((step) => mapStrings(step, fill))
}

/** The template's text at a parseSteps path ('steps.0.url'), if it is a string. */
function textAt(steps: readonly unknown[], path: string): string | null {
  let value: unknown = steps
  for (const part of path.split('.').slice(1)) {
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)]
    else if (isRecord(value) && Object.hasOwn(value, part)) value = value[part]
    else return null
  }
  return typeof value === 'string' ? value : null
}

/** A step's issue, naming the inputs that went into the field it is about. */
function withInputs(issue: Issue, steps: readonly unknown[], inputs: readonly TemplateInput[]): Issue {
  const names = namesIn(textAt(steps, issue.path) ?? '')
  const labels = inputs.filter((input) => names.includes(input.name)).map((input) => `“${input.label}” (${input.name})`)
  return labels.length ? { ...issue, message: `${issue.message}: check ${labels.join(' and ')}` } : issue
}

/** The template's strings, trimmed as the schema trims them, in the shape the schema kept (unknown keys dropped). */
function pruned(raw: unknown, parsed: unknown): unknown {
  if (Array.isArray(parsed)) return parsed.map((item, index) => pruned(Array.isArray(raw) ? raw[index] : undefined, item))
  if (isRecord(parsed)) {
    return Object.fromEntries(
      Object.entries(parsed).map(([key, item]) => [key, pruned(isRecord(raw) && Object.hasOwn(raw, key) ? raw[key] : undefined, item)]),
    )
  }
  return typeof raw === 'string' && typeof parsed === 'string' ? raw.trim() : parsed
}

/**
 * Checks a template's steps against its inputs: every `{{name}}` is a declared input in a text
 * field, every input is used, and the steps with the example values filled in pass the step
 * schema. Returns the steps to store (version 2, with their placeholders) or the issues.
 */
export function checkTemplateSteps(
  raw: readonly unknown[],
  inputs: readonly TemplateInput[],
): { ok: true; steps: unknown[] } | { ok: false; issues: Issue[] } {
  const steps = raw.map(upgradeStep)
  const declared = new Set(inputs.map((input) => input.name))
  const used = new Set<string>()
  const issues: Issue[] = []
  steps.forEach((step, index) => {
    const type = isRecord(step) && typeof step.type === 'string' ? step.type : 'step'
    for (const field of stringFields(step)) {
      const label = `Step ${index + 1} (${type})`
      const names = namesIn(field.text)
      const path = `steps.${index}.${field.path.join('.')}`
      if (/\{\{|\}\}/.test(field.text.replace(PLACEHOLDER, ''))) {
        issues.push({ path, message: `${label}: write an input as {{name}}, with lower-case letters, digits and _` })
      } else if (names.length && FIXED_FIELDS.has(field.path.at(-1) ?? '')) {
        issues.push({ path, message: `${label}: an input cannot stand in for ${field.path.at(-1)}` })
      }
      for (const name of names) {
        used.add(name)
        if (!declared.has(name)) issues.push({ path, message: `${label}: {{${name}}} is not one of the template's inputs` })
      }
    }
  })
  inputs.forEach((input, index) => {
    if (!used.has(input.name)) issues.push({ path: `inputs.${index}.name`, message: `The input ${input.name} is not used by any step` })
  })
  if (issues.length) return { ok: false, issues }
  const parsed = parseSteps(fillSteps(steps, new Map(inputs.map((input) => [input.name, input.example]))))
  if (!parsed.ok) {
    return {
      ok: false,
      issues: parsed.issues.map((issue) => withInputs({ ...issue, message: `With the examples, ${issue.message}` }, steps, inputs)),
    }
  }
  return { ok: true, steps: pruned(steps, parsed.steps) as unknown[] }
}

/**
 * A member's values for the template's inputs: trimmed, a blank one its default (when it has one),
 * required ones present. An unknown name, a missing required input or an over-long value is the issue.
 */
export function resolveInputs(
  inputs: readonly TemplateInput[],
  given: Readonly<Record<string, string>>,
): { ok: true; values: Map<string, string> } | { ok: false; issue: Issue } {
  const declared = new Map(inputs.map((input) => [input.name, input]))
  for (const name of Object.keys(given)) {
    if (!declared.has(name))
      return { ok: false, issue: { path: `inputs.${name}`, message: `This template has no input named ${name.slice(0, 40)}.` } }
  }
  const values = new Map<string, string>()
  for (const input of inputs) {
    const value = (Object.hasOwn(given, input.name) ? String(given[input.name]) : '').trim()
    const path = `inputs.${input.name}`
    if (value.length > MAX_INPUT_VALUE_LENGTH) {
      return { ok: false, issue: { path, message: `${input.label} (${input.name}) is at most ${MAX_INPUT_VALUE_LENGTH} characters.` } }
    }
    // Left blank: the default when there is one; otherwise required inputs are refused.
    if (!value && !input.defaultValue && input.required) {
      return { ok: false, issue: { path, message: `${input.label} (${input.name}) is required.` } }
    }
    values.set(input.name, value || input.defaultValue)
  }
  return { ok: true, values }
}

/** The template's steps filled with the values and checked, or the first issue naming the input behind it. */
export function filledSteps(
  steps: readonly unknown[],
  inputs: readonly TemplateInput[],
  values: ReadonlyMap<string, string>,
): { ok: true; steps: AutomationStep[] } | { ok: false; issues: Issue[] } {
  const parsed = parseSteps(fillSteps(steps, values))
  if (parsed.ok) return parsed
  return { ok: false, issues: parsed.issues.map((issue) => withInputs(issue, steps, inputs)) }
}

/**
 * The steps in words, as the gallery previews them: with the member's values where given, the
 * examples elsewhere (and the examples alone while the values do not make valid steps yet).
 */
export function previewSteps(steps: readonly unknown[], inputs: readonly TemplateInput[], given: Record<string, string> = {}): string[] {
  const example = new Map(inputs.map((input) => [input.name, input.defaultValue || input.example]))
  const chosen = new Map(inputs.map((input) => [input.name, given[input.name]?.trim() || (example.get(input.name) ?? '')]))
  for (const values of [chosen, example]) {
    const parsed = parseSteps(fillSteps(steps, values))
    if (parsed.ok) return parsed.steps.map(stepInWords)
  }
  return steps.map((step) => `A ${isRecord(step) && typeof step.type === 'string' ? step.type : 'step'} step`)
}
