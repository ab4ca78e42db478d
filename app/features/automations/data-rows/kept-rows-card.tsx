import { Table2 } from 'lucide-react'
import { useId } from 'react'
import { Form, useActionData, useNavigation } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { DataRowsField } from './data-rows-field.tsx'
import type { KeptRowsView } from './kept-rows-view.server.ts'

const KEPT_ROWS_INTENTS = ['keep-rows', 'forget-rows']

/** The page's action answer, when it is one of this card's. */
function useKeptRowsAnswer() {
  const answer = useActionData<ActionResult | Record<string, unknown>>()
  return answer && 'intent' in answer && KEPT_ROWS_INTENTS.includes(String(answer.intent)) ? (answer as ActionResult) : undefined
}

/**
 * Rows of data kept with an automation that goes through rows (docs/decisions/046): a schedule, a
 * trigger URL, or Run in cloud with no rows given goes through these.
 */
export function KeptRowsCard({ kept, readOnly }: { kept: KeptRowsView; readOnly: boolean }) {
  const id = useId()
  useActionToast(useKeptRowsAnswer())
  const navigation = useNavigation()
  const keeping = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'keep-rows'
  return (
    <Card role="region" aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle level={2} id={`${id}-title`}>
          Rows of data
        </CardTitle>
        <CardDescription>
          Its “for each row” block goes through these when a run starts without rows of its own: on its schedule, from its trigger URL, or
          from Run in cloud with nothing given.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {kept.current ? (
          <p>
            Kept: <span className="font-medium">{kept.current.name}</span>, {kept.current.rowCount.toLocaleString('en')} row
            {kept.current.rowCount === 1 ? '' : 's'} with the columns <span className="font-mono">{kept.current.columns.join(', ')}</span>{' '}
            (since {kept.current.updatedAt}).
          </p>
        ) : (
          <p className="text-muted-foreground">No rows are kept with it: each run needs rows given when it starts.</p>
        )}
        {readOnly ? null : (
          <>
            <Form method="post" encType="multipart/form-data" className="space-y-3">
              <input type="hidden" name="intent" value="keep-rows" />
              <DataRowsField id={`${id}-rows`} />
              <Button type="submit" size="sm" variant="outline" disabled={keeping}>
                <Table2 aria-hidden="true" /> {keeping ? 'Keeping...' : kept.current ? 'Replace the kept rows' : 'Keep these rows'}
              </Button>
            </Form>
            {kept.current ? (
              <ConfirmAction
                label="Remove the kept rows"
                title="Remove the kept rows?"
                description="Runs started without rows of their own (its schedule, its trigger URL) are then refused until you keep rows again."
                confirmLabel="Remove"
                fields={{ intent: 'forget-rows' }}
                triggerProps={{ variant: 'outline', size: 'sm' }}
                destructive
              />
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  )
}
