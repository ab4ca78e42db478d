import { Lightbulb } from 'lucide-react'
import { Link, useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { SuggestionsView } from './builder-view.server.ts'

/**
 * Optimisation suggestions for a saved automation, from its steps and its runs: each is one
 * click, which saves a new version. Unsaved edits would be overwritten, so applying waits for a save.
 */
export function SuggestionsCard({ suggestions, unsaved }: { suggestions: SuggestionsView; unsaved: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Suggestions</CardTitle>
        <CardDescription>Ways to make this automation faster and sturdier, from its steps and its last runs.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {suggestions.locked ? (
          <p className="text-sm">
            {suggestions.locked}{' '}
            <Link to="/billing" className="font-medium underline underline-offset-4">
              See plans
            </Link>
          </p>
        ) : suggestions.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No suggestions: nothing in its steps or recent runs calls for a change.</p>
        ) : (
          <>
            {unsaved ? <p className="text-sm text-amber-800 dark:text-amber-300">Save your changes before applying a suggestion.</p> : null}
            <ul className="divide-y">
              {suggestions.items.map((suggestion) => (
                <li key={suggestion.id} className="flex flex-wrap items-start justify-between gap-3 py-3 text-sm">
                  <div className="min-w-0 space-y-1">
                    <p className="font-medium">{suggestion.title}</p>
                    <p className="text-muted-foreground">{suggestion.detail}</p>
                  </div>
                  <ApplySuggestion id={suggestion.id} title={suggestion.title} disabled={unsaved} />
                </li>
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  )
}

function ApplySuggestion({ id, title, disabled }: { id: string; title: string; disabled: boolean }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data)
  const busy = fetcher.state !== 'idle'
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="apply-suggestion" />
      <input type="hidden" name="suggestionId" value={id} />
      <Button type="submit" size="sm" variant="outline" disabled={disabled || busy} aria-label={`Apply: ${title}`}>
        <Lightbulb aria-hidden="true" /> {busy ? 'Applying...' : 'Apply'}
      </Button>
    </fetcher.Form>
  )
}
