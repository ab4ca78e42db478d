import type { AutomationStep } from '#common/automation-steps.ts'
import type { ScriptedStep } from '../../scripted-model.ts'
import type { RealAppName, RealApps } from '../index.ts'

// A task of the real-app corpus: a sentence a person would write about a real app, where it
// starts, what the scripted model answers, and how to tell whether a run did it. The check is
// written by hand for each task and never shown to a planner: read-only steps run after the
// planned ones (extracts into fields named check_…, assertTexts), then a judgement of what the
// run extracted and what the app's backend holds.

export interface RunEvidence {
  /** Every field the run extracted, planned or the check's own, with its values in order (empty ones left out). */
  fields: Record<string, string[]>
  apps: RealApps
}

export interface OutcomeCheck {
  /** Read-only steps appended after the planned ones. */
  after?: AutomationStep[]
  /** Why the run did not do the task, or null when it did. */
  judge: (evidence: RunEvidence) => string | null | Promise<string | null>
}

export interface RealAppTask {
  /** Stable, for choosing tasks (the CI subset) and reading reports. */
  id: string
  app: RealAppName
  description: string
  /** The build planned on; the app's first when unset. */
  build?: string
  /** The build the plan's steps are moved to (another build of the same app); none when the app has one. */
  movedTo?: string
  /** Added to the build's start page: a query (TodoMVC's ?seed=…) or a hash route. */
  path?: string
  /** What the scripted model answers, step by step (by element words, as in scripts/bench/planner-corpus.ts). */
  model: ScriptedStep[]
  check: OutcomeCheck
}
