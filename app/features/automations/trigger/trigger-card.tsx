import { Link2 } from 'lucide-react'
import { Form, Link, useActionData, useNavigation } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { ShownOnce } from '#app/components/shown-once.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { IssuedTriggerAnswer } from './trigger-actions.server.ts'
import type { TriggerView } from './trigger-view.server.ts'

const TRIGGER_INTENTS = ['issue-trigger', 'revoke-trigger']

/** The page's action answer, when it is one of this card's. */
function useTriggerAnswer() {
  const answer = useActionData<ActionResult | IssuedTriggerAnswer | Record<string, unknown>>()
  return answer && 'intent' in answer && TRIGGER_INTENTS.includes(String(answer.intent)) ? (answer as ActionResult) : undefined
}

/** How to call the URL from a terminal, with a placeholder value for each input. */
function curlExample(url: string, inputs: string[]): string {
  const body = JSON.stringify({ inputs: Object.fromEntries(inputs.map((name) => [name, '…'])) })
  return `curl -X POST ${url} \\\n  -H 'content-type: application/json' \\\n  -d '${body}'`
}

/**
 * The automation's trigger URL (docs/decisions/027): another system starts a cloud run with a
 * POST to it, giving values for the steps' {{input.name}} placeholders.
 */
export function TriggerCard({ trigger, readOnly }: { trigger: TriggerView; readOnly: boolean }) {
  const answer = useTriggerAnswer()
  useActionToast(answer)
  const navigation = useNavigation()
  const issuing = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'issue-trigger'
  const issued = answer?.ok && 'url' in answer ? (answer as IssuedTriggerAnswer) : null
  return (
    <Card role="region" aria-labelledby="trigger-url">
      <CardHeader>
        <CardTitle level={2} id="trigger-url">
          Trigger URL
        </CardTitle>
        <CardDescription>
          Start this automation from another system: a POST to its trigger URL queues a cloud run (1 credit), with a value for each of its
          inputs.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <p>
          {trigger.inputs.length ? (
            <>
              Inputs it takes: <span className="font-mono">{trigger.inputs.join(', ')}</span>.
            </>
          ) : (
            <>
              It takes no inputs. Write <span className="font-mono">{'{{input.name}}'}</span> in a step&apos;s address or text to make one.
            </>
          )}
        </p>
        {issued ? (
          <ShownOnce
            title="Your trigger URL"
            note="Copy it now: anyone who has it can start this automation. You won't see it again."
            label="New trigger URL"
            value={issued.url}
          >
            <pre className="rounded bg-muted p-2 text-xs [overflow-wrap:anywhere] whitespace-pre-wrap">
              {curlExample(issued.url, trigger.inputs)}
            </pre>
          </ShownOnce>
        ) : null}
        {trigger.current ? (
          <p>
            A trigger URL ending in <span className="font-mono">…{trigger.current.hint}</span>, made {trigger.current.createdAt}.{' '}
            {trigger.current.lastUsedAt ? `Last used ${trigger.current.lastUsedAt}.` : 'Not used yet.'}
          </p>
        ) : (
          <p className="text-muted-foreground">No trigger URL yet.</p>
        )}
        {trigger.locked ? (
          <p>
            {trigger.locked}{' '}
            <Link to="/billing" className="font-medium underline underline-offset-4">
              See plans
            </Link>
          </p>
        ) : readOnly ? null : trigger.current ? (
          <div className="flex flex-wrap gap-2">
            <ConfirmAction
              label="Rotate"
              title="Rotate the trigger URL?"
              description="You get a new URL, and the current one stops working at once: update every system that calls it."
              confirmLabel="Rotate"
              fields={{ intent: 'issue-trigger' }}
              triggerProps={{ variant: 'outline', size: 'sm' }}
            />
            <ConfirmAction
              label="Revoke"
              title="Revoke the trigger URL?"
              description="It stops starting runs at once. You can make a new one later."
              confirmLabel="Revoke"
              fields={{ intent: 'revoke-trigger' }}
              triggerProps={{ variant: 'outline', size: 'sm' }}
              destructive
            />
          </div>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="issue-trigger" />
            <Button type="submit" size="sm" variant="outline" disabled={issuing}>
              <Link2 aria-hidden="true" /> {issuing ? 'Making...' : 'Create trigger URL'}
            </Button>
          </Form>
        )}
      </CardContent>
    </Card>
  )
}
