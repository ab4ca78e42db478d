import { describeTarget } from '#common/targets.ts'
import { replaced, targetOf } from './step-edits.ts'
import type { SuggestedAutomation, SuggestionCandidate } from './suggestion-analysis.ts'
import { elementName, seconds } from './suggestion-wording.ts'

// The kinds read from the steps alone, each in the order of its steps.

/** A fixed wait shorter than this is left alone. */
const MIN_FIXED_WAIT_MS = 500

/** A fixed pause before a step that acts on an element: wait for that element instead. */
export function fixedWaits(automation: SuggestedAutomation): SuggestionCandidate[] {
  const candidates: SuggestionCandidate[] = []
  automation.steps.forEach((step, index) => {
    if (step.type !== 'wait' || step.ms === undefined || step.ms < MIN_FIXED_WAIT_MS) return
    const next = automation.steps[index + 1]
    const target = next && targetOf(next)
    if (!next || !target) return
    const n = index + 1
    candidates.push({
      kind: 'fixed-wait',
      step: n,
      title: `Wait for ${elementName(target)} instead of ${seconds(step.ms)}`,
      detail:
        `Step ${n} always waits ${seconds(step.ms)} before step ${n + 1} (${next.type}) looks for ${describeTarget(target)}. ` +
        'Waiting for that element goes on as soon as it appears, and waits longer when the page is slow.',
      change: { steps: replaced(automation.steps, index, { type: 'wait', target }) },
    })
  })
  return candidates
}

/** Opening the page that is already open, or a page that is left at once for another. */
export function repeatedNavigation(automation: SuggestedAutomation): SuggestionCandidate[] {
  const candidates: SuggestionCandidate[] = []
  let previous: { index: number; url: string } | null = null
  automation.steps.forEach((step, index) => {
    if (step.type !== 'navigate') {
      // Waits and screenshots leave the page as it was; anything else may have changed it.
      if (step.type !== 'wait' && step.type !== 'screenshot') previous = null
      return
    }
    const before = previous
    previous = { index, url: step.url }
    if (!before) return
    if (before.index === index - 1) {
      const n = before.index + 1
      candidates.push({
        kind: 'repeated-navigation',
        step: n,
        title: `Remove step ${n}: step ${n + 1} opens another page right after it`,
        detail: `Step ${n} opens ${before.url}, and step ${n + 1} goes on to ${step.url} before anything is done there.`,
        change: { steps: automation.steps.filter((_, at) => at !== before.index) },
      })
    } else if (sameUrl(before.url, step.url)) {
      const n = index + 1
      candidates.push({
        kind: 'repeated-navigation',
        step: n,
        title: `Remove step ${n}: it opens ${step.url} again`,
        detail: `Step ${before.index + 1} opened the same page, and only waits or screenshots come between them, so step ${n} only loads it again.`,
        change: { steps: automation.steps.filter((_, at) => at !== index) },
      })
    }
  })
  return candidates
}

function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => (URL.canParse(url) ? new URL(url).href : url)
  return normal(a) === normal(b)
}
