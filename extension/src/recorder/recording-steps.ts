import type { AutomationStep } from '#common/automation-steps.ts'

/** What the recorder writes: the steps a member's own actions make. */
export type RecordedStep = Extract<AutomationStep, { type: 'navigate' | 'click' | 'type' | 'select' | 'press' }>

const sameTarget = (a: AutomationStep, b: AutomationStep) =>
  'target' in a && 'target' in b && JSON.stringify(a.target) === JSON.stringify(b.target)

/**
 * A recording with one more step. Typing into a field, or choosing in a list, again right after
 * the last step did the same there replaces that step (one `type` step per field, with what the
 * field holds in the end); going to an address right after going to another replaces it too.
 */
export function withRecordedStep(steps: readonly AutomationStep[], step: RecordedStep): AutomationStep[] {
  const last = steps.at(-1)
  const replacesLast =
    last !== undefined &&
    last.type === step.type &&
    (step.type === 'type' || step.type === 'select' ? sameTarget(last, step) : step.type === 'navigate')
  if (step.type === 'navigate' && last?.type === 'navigate' && last.url === step.url) return [...steps]
  return replacesLast ? [...steps.slice(0, -1), step] : [...steps, step]
}
