import { GUARD_THENS, guardSteps, type Guard } from './condition-clause.ts'
import { z } from 'zod'
import { STEP_KEYS, STEP_TYPES, type AutomationStep } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'
import { confirmTarget, type PageSnapshot, type SnapshotElement } from '#server/browser/page-snapshot.ts'
import { findRepeatedValues, repeatedValuesTarget } from '#server/browser/repeated-values.ts'
import type { StructuredAnswers } from '#server/features/ai/structured-answers.ts'
import type { Explorer } from './explorer.ts'
import type { DraftPlan, StepTrial } from './offline-planner.ts'
import { fieldName } from './plan-extract.ts'
import { hideSecrets, maskSecrets, unmaskSecrets } from './secrets.ts'
import { VERB_PROMPT, verbDecisionFields, verbStepOf } from './model-verb-steps.ts'
import { addressWithoutQuery, snapshotForModel } from './snapshot-prompt.ts'

/** The bounds of one planning by the model (docs/decisions/020). */
export const MODEL_PLANNING_LIMITS = {
  /** Questions to the model (each is one paid model call). */
  turns: 15,
  /** Tokens over all questions. */
  tokens: 60_000,
  /** Tokens one answer may take. */
  answerTokens: 800,
  /** One question's time. */
  answerMs: 30_000,
} as const

/**
 * The model's answer to 'what next?': the step schema's types and fields, with the element given
 * by its number in the page snapshot (`ref`) instead of a target. We turn the number into a
 * target in words and check that it matches exactly that one element before keeping the step.
 */
export const plannerDecisionSchema = z.object({
  thought: z.string().max(500).describe('One short sentence: what you see and why you choose this step.'),
  done: z.boolean().describe('true when the task is complete: then step is null.'),
  step: z
    .object({
      type: z.enum([...STEP_TYPES, 'guard']),
      ref: z
        .number()
        .int()
        .nullable()
        .describe('The [number] of the element the step acts on; null for navigate, screenshot and page-wide checks.'),
      url: z.string().nullable().describe('navigate: the full address.'),
      text: z.string().nullable().describe('type: the text to type; select: the option; assertText: the text that must appear.'),
      key: z.enum(STEP_KEYS).nullable().describe('press: the key.'),
      ms: z.number().int().nullable().describe('wait: milliseconds, when waiting for a time.'),
      field: z.string().nullable().describe('extract: the column name for the values.'),
      all: z.boolean().nullable().describe('extract: true to read every element like this one (a column, a list).'),
      ...verbDecisionFields,
      then: z
        .enum(GUARD_THENS)
        .nullish()
        .describe('guard: skip (on with the next row or item), stop (end the run as succeeded) or fail (end it as failed).'),
    })
    .nullable(),
})
export type PlannerDecision = z.infer<typeof plannerDecisionSchema>

const SYSTEM = `You plan browser automations for people who are not programmers. You see one web page at a time as a numbered list of its elements, and you choose the next step of the task, one step per answer, until it is done.
Rules:
- Use only elements from the list, by their [number]. Never guess addresses or elements that are not listed.
- Step types: navigate (url), click (ref), type (ref, text), select (ref, text = the option), press (key, optional ref), wait (ms, or ref to wait for), extract (ref, field; all=true for every element like it, such as a table column), screenshot, assertText (text; optional ref).
${VERB_PROMPT}
- guard (text, then, not): when the task says what to do if the page shows a text (or, with not=true, does not show it), e.g. "if it says 'Out of stock', skip it". It is not tried now: put it where the check belongs, such as right after the step that opens the page it is about.
- if (text, not), else, end: when the task says to do steps only if the page shows a text (not=true: only if it does not), e.g. "if it says 'Cookies', click Accept". Answer if, then the steps it does, optionally else and the steps for the other case, then end. The steps inside are tried on the page as it is now.
- Values that look like {{secret 1}} stand for secrets: type them exactly as written.
- When everything the task asks for is done, answer done=true with step=null. If the task cannot be done on this site, answer done=true and say why in thought.`

/**
 * Plans with the AI model (docs/decisions/020): it explores the site in the cloud browser step by
 * step (look at the page, choose a step, try it, look again), bounded in turns, tokens and time;
 * every turn is paid first (`pay`). Secrets in the description are placeholders to the model.
 */
export async function planWithModel(input: {
  description: string
  start: string | null
  explorer: Explorer
  ai: StructuredAnswers
  pay: () => Promise<void>
}): Promise<DraftPlan & { turns: number; tokens: number }> {
  const { explorer, ai } = input
  const { text: task, secrets } = maskSecrets(input.description)
  const steps: AutomationStep[] = []
  const tried: StepTrial[] = []
  const notes: string[] = []
  const history: string[] = []
  let tokens = 0
  let turns = 0
  // The if blocks the model opened and has not ended yet (whether each is in its else part).
  const openIfs: { otherwise: boolean }[] = []
  // Secrets are typed on the site the task starts on only: text on another page cannot send them elsewhere.
  let secretsSite = input.start && URL.canParse(input.start) ? new URL(input.start).origin : null

  if (input.start) {
    const step: AutomationStep = { type: 'navigate', url: input.start }
    const failed = await explorer.attempt(step)
    steps.push(step)
    tried.push({ problem: failed, picture: await explorer.picture() })
    history.push(`1. navigate ${addressWithoutQuery(input.start)}${failed ? ` (failed: ${failed})` : ''}`)
  }

  for (;;) {
    if (turns >= MODEL_PLANNING_LIMITS.turns || tokens >= MODEL_PLANNING_LIMITS.tokens) {
      notes.push(`Planning stopped after ${turns} questions to the AI model (its limit); check whether the task is complete.`)
      break
    }
    if (explorer.remaining() <= 0) {
      notes.push('Planning ran out of time; check whether the task is complete.')
      break
    }
    const snapshot = await explorer.look()
    let answer
    try {
      await input.pay()
      turns += 1
      answer = await ai.answer(
        {
          schema: plannerDecisionSchema,
          name: 'next_step',
          system: SYSTEM,
          // Everything the model reads passes through hideSecrets: a page may echo what was typed.
          prompt: hideSecrets(
            [
              `Task: ${task}`,
              history.length ? `Steps so far:\n${history.join('\n')}` : 'No steps yet.',
              snapshotForModel(snapshot),
              'What is the next step?',
            ].join('\n\n'),
            secrets,
          ),
        },
        {
          maxOutputTokens: MODEL_PLANNING_LIMITS.answerTokens,
          timeoutMs: Math.max(1_000, Math.min(MODEL_PLANNING_LIMITS.answerMs, explorer.remaining())),
          signal: explorer.signal,
        },
      )
    } catch (error) {
      // Nothing planned yet: the caller decides (the offline planner may answer instead).
      if (steps.length <= (input.start ? 1 : 0) || !(error instanceof Error)) throw error
      notes.push(`Planning stopped early: ${error.message} Check whether the task is complete.`)
      break
    }
    const { value: decision, tokens: used } = answer
    tokens += used
    if (decision.done || !decision.step) {
      if (decision.thought && steps.length <= (input.start ? 1 : 0)) notes.push(`The AI model: ${decision.thought}`)
      break
    }
    if (BLOCK_MARKS.has(decision.step.type)) {
      const mark = blockMark(decision.step, secrets, openIfs)
      if ('problem' in mark) {
        history.push(`(Your last answer could not be used: ${mark.problem})`)
        continue
      }
      steps.push(mark.step)
      tried.push({ problem: null, picture: null })
      if (mark.step.type === 'if') openIfs.push({ otherwise: false })
      else if (mark.step.type === 'else') openIfs[openIfs.length - 1] = { otherwise: true }
      else openIfs.pop()
      history.push(`${steps.length}. ${summary(mark.step)}`)
      continue
    }
    if (decision.step.type === 'guard') {
      const guard = guardOf(decision.step, secrets)
      if (!guard) {
        history.push('(Your last answer could not be used: a guard needs the text and then.)')
        continue
      }
      // Kept untried (condition-clause.ts): what this page shows says nothing of the rows or items a run meets.
      for (const step of guardSteps(guard)) {
        steps.push(step)
        tried.push({ problem: null, picture: null })
      }
      history.push(`${steps.length - 2}-${steps.length}. guard ${JSON.stringify(guard).slice(0, 300)}`)
      continue
    }
    const made = await toStep(decision.step, snapshot, explorer, secrets, () => secretsSite)
    if ('problem' in made) {
      history.push(`(Your last answer could not be used: ${made.problem})`)
      continue
    }
    const failed = made.step.type === 'screenshot' ? null : await explorer.attempt(made.step)
    const n = steps.length + 1
    if (failed) {
      history.push(`(Step ${made.step.type} failed: ${failed}. It was not kept.)`)
      continue
    }
    steps.push(made.step)
    tried.push({ problem: null, picture: await explorer.picture() })
    history.push(`${n}. ${summary(made.step)}`)
    if (!secretsSite && made.step.type === 'navigate') secretsSite = new URL(made.step.url).origin
  }
  // An if the model left open ends where the plan does.
  while (openIfs.pop()) {
    steps.push({ type: 'end' })
    tried.push({ problem: null, picture: null })
  }
  return { steps, tried, notes, turns, tokens }
}

/** The block marks the model may answer: an if's start, its else, its end; and how deep ifs may go. */
const BLOCK_MARKS: ReadonlySet<string> = new Set(['if', 'else', 'end'])
const MAX_NESTED_IFS = 3

/**
 * The model's if, else or end as a step: an if on a text the page shows (or not; secrets never),
 * an else once in an open if, an end of an open if. Untried: the condition is the run's to ask.
 */
function blockMark(
  proposed: NonNullable<PlannerDecision['step']>,
  secrets: Map<string, string>,
  openIfs: { otherwise: boolean }[],
): { step: AutomationStep } | { problem: string } {
  const open = openIfs.at(-1)
  if (proposed.type === 'else') {
    if (!open) return { problem: 'else belongs inside an if block: answer if first' }
    return open.otherwise ? { problem: 'this if block has its else already' } : { step: { type: 'else' } }
  }
  if (proposed.type === 'end') return open ? { step: { type: 'end' } } : { problem: 'there is no open if block to end' }
  if (!proposed.text?.trim() || /\{\{secret \d+\}\}/.test(proposed.text)) return { problem: 'an if needs the text the page shows' }
  if (openIfs.length >= MAX_NESTED_IFS) return { problem: `if blocks go at most ${MAX_NESTED_IFS} deep` }
  return {
    step: { type: 'if', when: proposed.not ? 'textNotShown' : 'textShown', text: unmaskSecrets(proposed.text, secrets).slice(0, 1000) },
  }
}

/** The model's guard as ours: the text it names (secrets never: they are not what a page shows). */
function guardOf(proposed: NonNullable<PlannerDecision['step']>, secrets: Map<string, string>): Guard | null {
  if (!proposed.text?.trim() || !proposed.then || /\{\{secret \d+\}\}/.test(proposed.text)) return null
  return {
    when: proposed.not ? 'textNotShown' : 'textShown',
    text: unmaskSecrets(proposed.text, secrets).slice(0, 1000),
    then: proposed.then === 'skip' ? 'skip' : proposed.then === 'fail' ? 'fail' : 'succeed',
  }
}

/** A kept step as the model reads it in 'Steps so far' (an address without its query). */
function summary(step: AutomationStep): string {
  const words = step.type === 'navigate' ? { ...step, url: addressWithoutQuery(step.url) } : step
  return `${step.type} ${JSON.stringify(words).slice(0, 300)}`
}

type Made = { step: AutomationStep } | { problem: string }

/** How long a proposed element that is not on the page as it was seen is looked for again. */
const REDRAWN_ELEMENT_MS = 1_500

/** The model's step as a step of ours: its element number made a checked target. */
async function toStep(
  proposed: NonNullable<PlannerDecision['step']>,
  snapshot: PageSnapshot,
  explorer: Explorer,
  secrets: Map<string, string>,
  secretsSite: () => string | null,
): Promise<Made> {
  const element = proposed.ref === null ? null : (snapshot.elements.find((candidate) => candidate.ref === proposed.ref) ?? null)
  const target = async (): Promise<Target | { problem: string }> => {
    if (!element)
      return {
        problem:
          proposed.ref === null ? `a ${proposed.type} step needs the element's number (ref)` : `there is no element [${proposed.ref}]`,
      }
    const confirm = () => confirmTarget(explorer.page, element.target)
    return (
      // The app may be drawing the element again (a re-render): looked for again, briefly.
      (await confirm()) ??
      (await explorer.waitFor(confirm, REDRAWN_ELEMENT_MS)) ?? {
        problem: `element [${element.ref}] cannot be told apart from others like it`,
      }
    )
  }
  const text = (value: string | null) => unmaskSecrets(value ?? '', secrets)
  switch (proposed.type) {
    case 'navigate': {
      const url = proposed.url && URL.canParse(proposed.url, snapshot.url) ? new URL(proposed.url, snapshot.url).toString() : null
      return url && /^https?:/i.test(url) ? { step: { type: 'navigate', url } } : { problem: 'navigate needs a full http(s) address' }
    }
    case 'screenshot':
      return { step: { type: 'screenshot' } }
    case 'press': {
      const key = proposed.key ?? 'Enter'
      if (proposed.ref === null) return { step: { type: 'press', key } }
      const found = await target()
      return Array.isArray(found) ? { step: { type: 'press', key, target: found } } : found
    }
    case 'wait': {
      if (proposed.ref !== null && proposed.not) {
        const found = await target()
        return Array.isArray(found) ? { step: { type: 'wait', target: found, gone: true } } : found
      }
      if (proposed.ref === null) return { step: { type: 'wait', ms: Math.min(Math.max(0, proposed.ms ?? 1000), 60_000) } }
      const found = await target()
      return Array.isArray(found) ? { step: { type: 'wait', target: found } } : found
    }
    case 'assertText': {
      if (!proposed.text) return { problem: 'assertText needs the text' }
      if (proposed.not && proposed.ref === null) return { step: { type: 'assertText', text: text(proposed.text), absent: true } }
      if (proposed.ref === null) return { step: { type: 'assertText', text: text(proposed.text) } }
      const found = await target()
      return Array.isArray(found) ? { step: { type: 'assertText', text: text(proposed.text), target: found } } : found
    }
    case 'extract': {
      const field = fieldName(proposed.field ?? element?.name ?? 'value')
      if (proposed.all && element) {
        const column = columnOf(element, snapshot)
        if (column) return { step: { type: 'extract', target: [{ by: 'column', header: column }], field } }
        const repeated = await findRepeatedValues(explorer.page, `${field} ${element.name}`)
        if (repeated)
          return {
            step: {
              type: 'extract',
              target: await repeatedValuesTarget(explorer.page, repeated),
              field,
              ...(repeated.attribute ? { attribute: repeated.attribute } : {}),
            },
          }
      }
      const found = await target()
      return Array.isArray(found) ? { step: { type: 'extract', target: found, field } } : found
    }
    case 'click':
    case 'type':
    case 'select': {
      const found = await target()
      if (!Array.isArray(found)) return found
      if (proposed.type === 'click') return { step: { type: 'click', target: found } }
      if (proposed.text === null) return { problem: `${proposed.type} needs the text` }
      if (/\{\{secret \d+\}\}/.test(proposed.text) && (!URL.canParse(snapshot.url) || new URL(snapshot.url).origin !== secretsSite())) {
        return { problem: 'secrets are typed only on the site the task starts on' }
      }
      return proposed.type === 'type'
        ? { step: { type: 'type', target: found, text: text(proposed.text) } }
        : { step: { type: 'select', target: found, value: text(proposed.text) } }
    }
    default:
      return verbStepOf(proposed, proposed.ref === null ? null : target)
  }
}

/** The header of the table column a cell stands in (by position on the page), if it is a cell. */
export function columnOf(cell: SnapshotElement, snapshot: PageSnapshot): string | null {
  if (cell.role !== 'cell' && cell.role !== 'columnheader') return null
  if (cell.role === 'columnheader') return cell.name || cell.text
  const middle = cell.box.x + cell.box.width / 2
  const header = snapshot.elements.find(
    (element) =>
      element.role === 'columnheader' &&
      element.box.y < cell.box.y &&
      element.box.x <= middle &&
      middle <= element.box.x + element.box.width,
  )
  return header ? header.name || header.text : null
}
