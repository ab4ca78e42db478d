import type { AutomationStep } from '#common/automation-steps.ts'

// 'If the page shows "Out of stock", skip it': a condition said in words (docs/decisions/046).
// Both planners turn one into an `if` block around a skip or a stop, kept without trying it (what
// the page shows while planning says nothing about the rows or items a run will meet).

/** What the model planner's guard answers may say to do (model-planner.ts). */
export const GUARD_THENS = ['skip', 'stop', 'fail'] as const

export interface Guard {
  /** The text the page shows, or (textNotShown) does not show. */
  when: 'textShown' | 'textNotShown'
  text: string
  /** skip: on with the next row or item; succeed / fail: the run ends so. */
  then: 'skip' | 'succeed' | 'fail'
  message?: string
}

const QUOTED = '\\uE000(\\d+)\\uE000'
const SHOWS = '(?:shows|says|displays|contains|mentions|has)'
const NOT_SHOWS = "(?:does\\s*n[o']t|doesn't)\\s+(?:show|say|display|contain|mention|have)"
const THE_PAGE = '(?:the\\s+(?:page|screen|product|item|result|row)|it)'
const SHOWN = '(?:shown|displayed|on\\s+the\\s+(?:page|screen)|there|visible)'

/** The condition's words, each with what it means ('the page shows …', '“…” is not shown', 'unless …'). */
const CONDITIONS: { pattern: RegExp; when: Guard['when'] }[] = [
  { pattern: new RegExp(`^(?:if|when)\\s+${THE_PAGE}\\s+${NOT_SHOWS}\\s+${QUOTED}`, 'i'), when: 'textNotShown' },
  { pattern: new RegExp(`^(?:if|when)\\s+${QUOTED}\\s+(?:is|are)\\s+not\\s+${SHOWN}`, 'i'), when: 'textNotShown' },
  { pattern: new RegExp(`^(?:if|when)\\s+there\\s+is\\s+no\\s+${QUOTED}`, 'i'), when: 'textNotShown' },
  { pattern: new RegExp(`^unless\\s+${THE_PAGE}\\s+${SHOWS}\\s+${QUOTED}`, 'i'), when: 'textNotShown' },
  { pattern: new RegExp(`^(?:if|when)\\s+${THE_PAGE}\\s+${SHOWS}\\s+${QUOTED}`, 'i'), when: 'textShown' },
  { pattern: new RegExp(`^(?:if|when)\\s+${QUOTED}\\s+(?:is|are)\\s+${SHOWN}`, 'i'), when: 'textShown' },
  { pattern: new RegExp(`^(?:if|when)\\s+${QUOTED}\\s+(?:appears|shows)`, 'i'), when: 'textShown' },
  { pattern: new RegExp(`^(?:if|when)\\s+(?:you\\s+see|there\\s+is)\\s+${QUOTED}`, 'i'), when: 'textShown' },
]

const SKIP =
  /^(?:skip(?:\s+(?:it|this(?:\s+(?:one|row|item|product|result|entry))?|that(?:\s+one)?|the\s+(?:row|item|product|result|entry)))?|go\s+on\s+(?:to|with)\s+the\s+next(?:\s+\w+)?|move\s+on(?:\s+to\s+the\s+next(?:\s+\w+)?)?|(?:go\s+to\s+the\s+)?next(?:\s+(?:one|row|item))?)$/i
const STOP =
  /^(?:(?:stop|end|finish)(?:\s+the\s+run)?(?:\s+as\s+(?<outcome>failed|a\s+failure|succeeded|a\s+success|successful))?|(?<fail>fail)(?:\s+the\s+run)?)(?:\s+(?:with|saying)(?:\s+the\s+message)?\s+\uE000(?<message>\d+)\uE000)?$/i

/** A condition said at a sentence's start, and the rest of the sentence: what to do when it holds. */
export interface SaidCondition {
  when: Guard['when']
  text: string
  rest: string
}

/**
 * The condition a sentence starts with, its quoted parts taken out (quoted-parts.ts): 'If the page
 * shows \uE0000\uE000, click Accept'. Null for any other sentence. The text must be quoted: it is
 * what the page must show, word for word.
 */
export function readCondition(sentence: string, quotes: readonly string[]): SaidCondition | null {
  const said = sentence.trim().replace(/[.!]+$/, '')
  for (const { pattern, when } of CONDITIONS) {
    const condition = pattern.exec(said)
    if (!condition) continue
    const text = quotes[Number(condition[1])]
    const rest = said
      .slice(condition[0].length)
      .replace(/^\s*,?\s*(?:then\s+)?/i, '')
      .trim()
    return text?.trim() ? { when, text, rest } : null
  }
  return null
}

/** A condition whose action is a skip or a stop ('…, skip it', '…, stop the run as failed with "…"'), or null. */
export function guardOf(condition: SaidCondition, quotes: readonly string[]): Guard | null {
  const { when, text, rest } = condition
  if (SKIP.test(rest)) return { when, text, then: 'skip' }
  const stop = STOP.exec(rest)
  if (!stop?.groups) return null
  const failed = Boolean(stop.groups.fail) || /fail/i.test(stop.groups.outcome ?? '')
  const message = stop.groups.message === undefined ? undefined : quotes[Number(stop.groups.message)]
  return { when, text, then: failed ? 'fail' : 'succeed', ...(message ? { message } : {}) }
}

/** 'If it says "Sold out"' alone: the condition, its action in the next sentence ('… then skip it'). */
export function isConditionAlone(sentence: string): boolean {
  const said = sentence.trim().replace(/[,.]+$/, '')
  return CONDITIONS.some(({ pattern }) => pattern.exec(said)?.[0].length === said.length)
}

/** The steps of a guard: `if` the condition, the skip or the stop, `end`. */
export function guardSteps(guard: Guard): AutomationStep[] {
  const shown = guard.when === 'textShown' ? 'shows' : 'does not show'
  const then: AutomationStep =
    guard.then === 'skip'
      ? { type: 'next' }
      : {
          type: 'stop',
          outcome: guard.then === 'fail' ? 'failed' : 'succeeded',
          message: guard.message ?? `The page ${shown} “${guard.text}”.`,
        }
  return [{ type: 'if', when: guard.when, text: guard.text }, then, { type: 'end' }]
}

/**
 * A skip outside any loop has no next row or item to go on with: there it ends the run as
 * succeeded, saying why (a task described without "for each …").
 */
export function skipsOutsideLoops(steps: readonly AutomationStep[]): AutomationStep[] {
  const open: string[] = []
  return steps.map((step, index) => {
    if (step.type === 'if' || step.type === 'repeat' || step.type === 'forEach' || step.type === 'forEachRow') open.push(step.type)
    else if (step.type === 'end') open.pop()
    if (step.type !== 'next' || open.some((type) => type !== 'if')) return step
    const condition = steps.slice(0, index).findLast((earlier) => earlier.type === 'if')
    const because =
      condition?.type === 'if' && condition.text
        ? ` the page ${condition.when === 'textNotShown' ? 'does not show' : 'shows'} “${condition.text}”.`
        : ''
    return { type: 'stop', outcome: 'succeeded', message: `Nothing more to do:${because || ' skipped.'}` }
  })
}
