import { TriangleAlert } from 'lucide-react'
import type { AutomationStep } from '#common/automation-steps.ts'
import { stepInWords } from '#common/step-words.ts'
import type { StepTrial } from '#server/features/planning/offline-planner.ts'

/**
 * One step of a draft plan: what it does in words, a small picture of the page as trying it left
 * it, and, when it did not work while planning, why (the member fixes or removes it before saving).
 */
export function DraftStep({ step, trial, n }: { step: AutomationStep; trial: StepTrial | undefined; n: number }) {
  const problem = trial?.problem ?? null
  return (
    <li className={problem ? 'marker:text-destructive' : undefined}>
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1 space-y-1">
          <p>{stepInWords(step)}</p>
          {problem ? (
            <p className="flex items-start gap-1.5 text-destructive">
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>Did not work while planning: {problem}</span>
            </p>
          ) : null}
        </div>
        {trial?.picture ? (
          <img
            src={trial.picture}
            alt={`The page after step ${n}`}
            width={160}
            height={100}
            loading="lazy"
            className="h-auto w-40 shrink-0 rounded border bg-muted"
          />
        ) : null}
      </div>
    </li>
  )
}
