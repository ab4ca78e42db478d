import { ShieldCheck } from 'lucide-react'
import { Form, useActionData, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { RunnerApprovalView } from './runner-approval-view.server.ts'

/** The page's action answer, when it is this card's. */
function useApprovalAnswer() {
  const answer = useActionData<ActionResult | Record<string, unknown>>()
  return answer && 'intent' in answer && answer.intent === 'approve-runner' ? (answer as ActionResult) : undefined
}

/**
 * Where an automation set to run on a local runner stands (docs/decisions/032, amended): a runner
 * runs what its owner saved or approved, so after anyone else's change its owner approves the
 * current version here, and the others see whom it waits for.
 */
export function RunnerApprovalCard({ runner, readOnly }: { runner: RunnerApprovalView; readOnly: boolean }) {
  useActionToast(useApprovalAnswer())
  const navigation = useNavigation()
  const approving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'approve-runner'
  return (
    <Card role="region" aria-labelledby="local-runner">
      <CardHeader>
        <CardTitle level={2} id="local-runner">
          Local runner
        </CardTitle>
        <CardDescription>
          A local runner runs only what its owner saved or approved: after anyone else changes the automation, its scheduled runs are
          refused there until the owner approves the new version.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        {!runner.connected ? (
          <p>
            The local runner this automation was set to run on is no longer connected: its schedule is paused, and stays paused until you
            choose another runner or the cloud under “Scheduled runs run”.
          </p>
        ) : runner.approved ? (
          <p>
            Scheduled runs run on {runner.mine ? 'your' : `${runner.owner}'s`} local runner “{runner.name}”: version {runner.version} is
            approved {runner.mine ? 'by you' : 'by them'}.
          </p>
        ) : runner.mine ? (
          <>
            <p role="alert">
              Version {runner.version} was not saved by you: its scheduled runs are refused on your local runner “{runner.name}” until you
              approve it. Read its steps above first (saving it here approves it too).
            </p>
            {readOnly ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="approve-runner" />
                <input type="hidden" name="version" value={runner.version} />
                <Button type="submit" disabled={approving}>
                  <ShieldCheck className="size-4" aria-hidden="true" />
                  {approving ? 'Approving…' : `Approve version ${runner.version} on “${runner.name}”`}
                </Button>
              </Form>
            )}
          </>
        ) : (
          <p role="status">
            Scheduled runs are refused on {runner.owner}&apos;s local runner “{runner.name}” until they approve version {runner.version} on
            this page. Or choose your own runner or the cloud under “Scheduled runs run”.
          </p>
        )}
      </CardContent>
    </Card>
  )
}
