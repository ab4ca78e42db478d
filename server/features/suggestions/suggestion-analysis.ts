import { createHash } from 'node:crypto'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { automationRuns, automations } from '#server/db/schema/index.ts'
import { canonical } from './canonical-json.ts'
import { failureClusters, oftenRepaired, slowSteps } from './history-suggestions.ts'
import { fixedWaits, repeatedNavigation } from './step-suggestions.ts'

/**
 * Optimisation suggestions for an automation (the Pro plan's "AI optimisation suggestions"): a
 * deterministic reading of its steps and its recent runs. No I/O: the service reads the rows and
 * applies the change. Each suggestion carries one change, the automation's whole new steps or its
 * self-repair switch, so that applying it is one click.
 */

/** How many of an automation's runs (newest first) the analysis reads. */
export const RECENT_RUNS = 20
/** The most suggestions one automation gets at a time. */
export const MAX_SUGGESTIONS = 20

/** The kinds, in the order they are listed. */
export const SUGGESTION_KINDS = ['failure-cluster', 'often-repaired', 'fixed-wait', 'slow-step', 'repeated-navigation'] as const
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number]

export interface SuggestionChange {
  /** The automation's whole new list of steps. */
  steps?: AutomationStep[]
  selfRepair?: boolean
}

export interface Suggestion {
  /** Stable for one version of the automation; it no longer matches once the automation changes. */
  id: string
  kind: SuggestionKind
  /** The step it is about (1-based), or null for the whole automation. */
  step: number | null
  title: string
  detail: string
  change: SuggestionChange
}

/** A suggestion as a detector finds it, before it gets its id. */
export type SuggestionCandidate = Omit<Suggestion, 'id'>

export type SuggestedAutomation = Pick<typeof automations.$inferSelect, 'id' | 'version' | 'steps' | 'selfRepair'>
export type AnalysedRun = Pick<typeof automationRuns.$inferSelect, 'status' | 'steps' | 'error' | 'log' | 'repairs' | 'refundedAt'>

export function suggestionId(automation: Pick<SuggestedAutomation, 'id' | 'version'>, kind: SuggestionKind, step: number | null): string {
  return createHash('sha256').update(`${automation.id}:${automation.version}:${kind}:${step}`).digest('hex').slice(0, 16)
}

/** The suggestions for an automation from its steps and its recent runs (newest first). */
export function suggestionsFor(automation: SuggestedAutomation, runs: readonly AnalysedRun[]): Suggestion[] {
  const recent = runs.slice(0, RECENT_RUNS)
  const found = [
    ...failureClusters(automation, recent),
    ...oftenRepaired(automation, recent),
    ...fixedWaits(automation),
    ...slowSteps(automation, recent),
    ...repeatedNavigation(automation),
  ]
  const kinds = new Set<string>()
  const changes = new Set<string>()
  /** Steps whose wait or target a suggestion already changes: a slow-step fix for them would compete with it. */
  const stepsChanged = new Set<number | null>()
  const suggestions: Suggestion[] = []
  for (const candidate of found) {
    const key = `${candidate.kind}:${candidate.step}`
    // Two kinds may arrive at the very same change (a slow fixed wait is also a fixed wait): offer it once, as the first.
    const change = canonical(candidate.change)
    if (kinds.has(key) || changes.has(change)) continue
    if (candidate.kind === 'slow-step' && stepsChanged.has(candidate.step)) continue
    if (candidate.kind === 'often-repaired' || candidate.kind === 'fixed-wait') stepsChanged.add(candidate.step)
    kinds.add(key)
    changes.add(change)
    suggestions.push({ id: suggestionId(automation, candidate.kind, candidate.step), ...candidate })
  }
  return suggestions.slice(0, MAX_SUGGESTIONS)
}
