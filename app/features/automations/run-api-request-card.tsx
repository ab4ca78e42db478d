import { Link } from 'react-router'
import { CopyButton } from '#app/components/copy-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { API_KEY_PLACEHOLDER } from './run-api-request.ts'

/** "Copy as API request": the curl command that starts this run's automation as it was started. */
export function RunApiRequestCard({ command }: { command: string }) {
  return (
    <Card role="region" aria-labelledby="run-api-request">
      <CardHeader>
        <CardTitle level={2} id="run-api-request">
          API request
        </CardTitle>
        <CardDescription>
          Start this automation from your own code (a POSIX shell: macOS, Linux, WSL) the way this run was started, with the same inputs and
          rows. Replace <code className="font-mono text-xs">{API_KEY_PLACEHOLDER}</code> with a key from{' '}
          <Link to="/settings#api-keys" className="text-primary underline">
            API Keys
          </Link>
          .
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {/* Scrolls on its own: focusable, so a keyboard can scroll it too. */}
        <pre
          role="region"
          aria-label="curl command"
          tabIndex={0}
          className="max-h-64 overflow-auto rounded bg-muted p-3 text-xs [overflow-wrap:anywhere] whitespace-pre-wrap"
        >
          {command}
        </pre>
        <CopyButton value={command} what="API request" label="Copy as API request" />
      </CardContent>
    </Card>
  )
}
