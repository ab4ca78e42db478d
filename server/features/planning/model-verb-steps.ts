import { z } from 'zod'
import { DIALOG_ACTIONS, type AutomationStep } from '#common/automation-steps.ts'
import type { Target } from '#common/targets.ts'

// The verb steps (common/verb-steps.ts) as the model planner asks for them and makes them.

/** The fields of the model's step answer that only the verb steps use (a model that leaves them out still answers in shape). */
export const verbDecisionFields = {
  checked: z.boolean().nullish().describe('check, assertChecked: true for ticked, false for not ticked.'),
  count: z.number().int().nullish().describe('assertCount: how many elements like the ref there must be.'),
  not: z
    .boolean()
    .nullish()
    .describe('wait: true to wait until the element is gone; assertText: true to check the text is NOT on the page.'),
  action: z.enum(DIALOG_ACTIONS).nullish().describe('dialog: accept (OK) or dismiss (Cancel) the next browser dialog.'),
}

export const VERB_PROMPT = `- More step types: check (ref, checked: sets a checkbox or switch to ticked or not, doing nothing when it already is), hover (ref), doubleClick (ref), clear (ref: empties a field), goBack, scroll (optional ref: scrolls until it shows), dialog (action, optional text for a prompt: answers the NEXT browser alert/confirm/prompt, so put it before the step that opens one), switchTab (go on in the tab or popup a click just opened), assertChecked (ref, checked), assertCount (ref, count).
- Prefer check over click for checkboxes and switches. wait with not=true waits until the element is gone.`

type Proposed = {
  type: AutomationStep['type'] | 'guard'
  text: string | null
  checked?: boolean | null
  count?: number | null
  action?: (typeof DIALOG_ACTIONS)[number] | null
}
type Made = { step: AutomationStep } | { problem: string }

/** A verb step from the model's answer; `target` checks its element (null: it named none). */
export async function verbStepOf(proposed: Proposed, target: (() => Promise<Target | { problem: string }>) | null): Promise<Made> {
  const needing = async (make: (found: Target) => AutomationStep): Promise<Made> => {
    if (!target) return { problem: `a ${proposed.type} step needs the element's number (ref)` }
    const found = await target()
    return Array.isArray(found) ? { step: make(found) } : (found as { problem: string })
  }
  switch (proposed.type) {
    case 'check':
      return needing((found) => ({ type: 'check', target: found, checked: proposed.checked ?? true }))
    case 'hover':
    case 'doubleClick':
    case 'clear': {
      const type = proposed.type
      return needing((found) => ({ type, target: found }))
    }
    case 'goBack':
      return { step: { type: 'goBack' } }
    case 'switchTab':
      return { step: { type: 'switchTab' } }
    case 'scroll':
      return target ? needing((found) => ({ type: 'scroll', target: found })) : { step: { type: 'scroll' } }
    case 'dialog':
      return {
        step: {
          type: 'dialog',
          action: proposed.action ?? 'accept',
          ...(proposed.action !== 'dismiss' && proposed.text ? { text: proposed.text } : {}),
        },
      }
    case 'assertChecked':
      return needing((found) => ({ type: 'assertChecked', target: found, checked: proposed.checked ?? true }))
    case 'assertCount':
      if (proposed.count === null || proposed.count === undefined || proposed.count < 0) return { problem: 'assertCount needs the count' }
      return needing((found) => ({ type: 'assertCount', target: found, count: proposed.count as number }))
    default:
      return { problem: `${proposed.type} is not a step type` }
  }
}
