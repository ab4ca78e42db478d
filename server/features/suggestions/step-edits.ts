import type { AutomationStep } from '#common/automation-steps.ts'
import { MAX_TARGET_ALTERNATIVES, type Target } from '#common/targets.ts'
import { canonical } from './canonical-json.ts'

export function targetOf(step: AutomationStep): Target | undefined {
  return 'target' in step && step.target ? step.target : undefined
}

/**
 * The new ways first, then the old ones not among them, at most MAX_TARGET_ALTERNATIVES: the rule
 * of automation.service.ts's mergedTarget (what "Apply fix" writes), repeated here because a
 * feature imports no value from another (eslint/local-rules.js) and this analysis has no I/O to
 * take it as a service.
 */
export function mergedTarget(first: Target, then: Target): Target {
  const seen = new Set(first.map((way) => canonical(way)))
  return [...first, ...then.filter((way) => !seen.has(canonical(way)))].slice(0, MAX_TARGET_ALTERNATIVES)
}

export function withStep(steps: readonly AutomationStep[], index: number, step: AutomationStep, target: Target): AutomationStep[] {
  return replaced(steps, index, { ...step, target } as AutomationStep)
}

export function replaced(steps: readonly AutomationStep[], index: number, step: AutomationStep): AutomationStep[] {
  return steps.map((current, at) => (at === index ? step : current))
}
