import type { AutomationStep } from '#common/automation-steps.ts'
import { stepInWords } from '#common/step-words.ts'

/** A recording's steps as sentences a member reads. */
export function RecordedSteps({ steps }: { steps: readonly AutomationStep[] }) {
  if (!steps.length) return <p className="muted">No steps yet: click, type and choose in the page.</p>
  return (
    <ol aria-label="Recorded steps">
      {steps.map((step, index) => (
        <li key={index}>{stepInWords(step)}</li>
      ))}
    </ol>
  )
}
