import { Wrench } from 'lucide-react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { RunDetail } from './run-view.server.ts'

const HOW = {
  alternative: 'another way the step already had',
  similar: 'similar words on the page',
  model: 'the AI model',
} as const

/**
 * Steps this run repaired (self-repair, docs/decisions/019): what was not found, what was used
 * instead and how, with the screenshot of that moment; "Apply fix" writes the repair into the
 * automation as a new version.
 */
export function RunRepairs({ repairs, canApply }: { repairs: RunDetail['repairs']; canApply: boolean }) {
  if (repairs.length === 0) return null
  return (
    <Card role="region" aria-labelledby="repaired-steps">
      <CardHeader>
        <CardTitle level={2} id="repaired-steps">
          Repaired steps
        </CardTitle>
        <CardDescription>
          The page had changed: these steps found their element another way. The repair was used for this run only; apply it to keep it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {repairs.map((repair) => (
            <li key={repair.step} className="flex flex-wrap items-start justify-between gap-4 py-3 text-sm">
              <div className="min-w-0 space-y-1">
                <p className="font-medium">
                  Step {repair.step}
                  {repair.stepType ? ` (${repair.stepType})` : ''}: {repair.failed} was not found
                </p>
                <p className="text-muted-foreground">
                  Used {repair.used}, found by {HOW[repair.how]}.
                </p>
                {repair.screenshotUrl ? (
                  <a
                    href={repair.screenshotUrl}
                    target="_blank"
                    rel="noreferrer"
                    className="text-primary underline-offset-4 hover:underline"
                  >
                    Screenshot of the repaired step
                  </a>
                ) : null}
              </div>
              {repair.appliedInVersion ? (
                <p className="text-sm text-muted-foreground">Applied in version {repair.appliedInVersion}</p>
              ) : canApply ? (
                <ApplyFix step={repair.step} />
              ) : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

function ApplyFix({ step }: { step: number }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data)
  const busy = fetcher.state !== 'idle'
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="apply-fix" />
      <input type="hidden" name="step" value={step} />
      <Button type="submit" size="sm" disabled={busy} aria-label={`Apply fix to step ${step}`}>
        <Wrench aria-hidden="true" /> {busy ? 'Applying...' : 'Apply fix'}
      </Button>
    </fetcher.Form>
  )
}
