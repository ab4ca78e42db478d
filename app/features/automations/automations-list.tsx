import { Copy, LayoutTemplate, Pause, Pencil, Play, Plus, Trash2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { AutomationRow } from './run-view.server.ts'
import { RunStatusBadge } from './run-status.tsx'
import { RunInCloud } from './run-in-cloud.tsx'
import { RunOnRunner, type OwnRunner } from './run-on-runner.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { NextRuns } from './next-runs.tsx'

/**
 * 'My Automations': each with its steps, its schedule in words with the next runs, and its last run;
 * run it in the cloud, pause or resume its schedule, edit, copy or delete it. `readOnly`: a viewer of
 * the workspace sees the automations without the buttons that change or run them.
 */
export function AutomationsList({
  automations,
  total,
  memberTimeZone,
  readOnly = false,
  runners = [],
  children,
}: {
  automations: AutomationRow[]
  /** The member's own connected local runners: "Run on …" queues a run there. */
  runners?: OwnRunner[]
  total: number
  /** The zone in the member's settings (null: their browser's): the next runs show in it. */
  memberTimeZone: string | null
  readOnly?: boolean
  children?: ReactNode
}) {
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="space-y-1.5">
          <CardTitle level={2}>My Automations</CardTitle>
          <CardDescription>
            {total === 0 ? 'Build one step by step, or import its steps as JSON.' : total === 1 ? '1 automation' : `${total} automations`}
          </CardDescription>
        </div>
        {readOnly ? (
          <p className="text-xs text-muted-foreground">You are a viewer in this workspace: you can look, not change or run.</p>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <Link to="/dashboard/templates">
                <LayoutTemplate aria-hidden="true" /> From a template
              </Link>
            </Button>
            <Button asChild variant="outline" size="sm">
              <Link to="/dashboard/automations/new">
                <Plus aria-hidden="true" /> New Automation
              </Link>
            </Button>
          </div>
        )}
      </CardHeader>
      <CardContent>
        {automations.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have no automations yet.</p>
        ) : (
          <DataTable caption="My Automations" headers={['Name', 'Steps', 'Schedule', 'Last run', { label: 'Actions', srOnly: true }]}>
            {automations.map((automation) => (
              <AutomationLine
                key={automation.id}
                automation={automation}
                memberTimeZone={memberTimeZone}
                readOnly={readOnly}
                runners={runners}
              />
            ))}
          </DataTable>
        )}
        {children}
      </CardContent>
    </Card>
  )
}

function AutomationLine({
  automation,
  memberTimeZone,
  readOnly,
  runners,
}: {
  automation: AutomationRow
  memberTimeZone: string | null
  readOnly: boolean
  runners: OwnRunner[]
}) {
  const navigation = useNavigation()
  const busy = (intent: string) =>
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData.get('automationId') === automation.id
  return (
    <tr className="border-b align-top last:border-0">
      <td data-label="Name" className="max-w-64 px-3 py-3">
        <Link to={`/dashboard/automations/${automation.id}`} className="font-medium hover:underline">
          {automation.name}
        </Link>
        {automation.description ? <p className="line-clamp-2 text-xs text-muted-foreground">{automation.description}</p> : null}
      </td>
      <td data-label="Steps" className="px-3 py-3 whitespace-nowrap tabular-nums">
        {automation.stepCount === 1 ? '1 step' : `${automation.stepCount} steps`}
      </td>
      <td data-label="Schedule" className="max-w-72 px-3 py-3">
        {automation.schedule ? (
          <div className="space-y-1">
            <p className="text-sm">{automation.schedule.words}</p>
            {automation.disconnectedRunner ? (
              <p className="text-xs font-medium text-destructive" role="note">
                Paused: its local runner “{automation.disconnectedRunner}” was disconnected.{' '}
                <Link to={`/dashboard/automations/${automation.id}`} className="underline">
                  Choose a runner or the cloud
                </Link>
                .
              </p>
            ) : automation.schedule.paused ? (
              <p className="text-xs font-medium text-muted-foreground">Paused</p>
            ) : (
              <NextRuns runs={automation.schedule.nextRuns} memberTimeZone={memberTimeZone} />
            )}
          </div>
        ) : (
          'Manual'
        )}
      </td>
      <td data-label="Last run" className="px-3 py-3">
        {automation.lastRun ? (
          <Link
            to={`/dashboard/runs/${automation.lastRun.id}`}
            className="inline-flex flex-col items-start gap-1 hover:underline"
            aria-label={`Last run of ${automation.name}: ${automation.lastRun.status}, ${automation.lastRun.created.label}`}
          >
            <RunStatusBadge status={automation.lastRun.status} />
            <time dateTime={automation.lastRun.created.iso} className="text-xs text-muted-foreground">
              {automation.lastRun.created.label}
            </time>
          </Link>
        ) : (
          <span className="text-muted-foreground">Never</span>
        )}
      </td>
      <td data-label="" className="py-3">
        <div className="flex flex-wrap justify-end gap-1" hidden={readOnly}>
          <RunInCloud automation={automation} />
          {automation.inputNames.length === 0 ? <RunOnRunner automation={automation} runners={runners} /> : null}
          {/* A schedule paused with its runner resumes only once the member chose again, in the builder. */}
          {automation.schedule && !automation.disconnectedRunner ? (
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value={automation.schedule.paused ? 'resume' : 'pause'} />
              <input type="hidden" name="automationId" value={automation.id} />
              <Button
                type="submit"
                variant="outline"
                size="sm"
                aria-label={`${automation.schedule.paused ? 'Resume' : 'Pause'} the schedule of ${automation.name}`}
                disabled={busy('pause') || busy('resume')}
              >
                {automation.schedule.paused ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}{' '}
                {automation.schedule.paused ? 'Resume' : 'Pause'}
              </Button>
            </Form>
          ) : null}
          <Button asChild variant="outline" size="sm">
            <Link to={`/dashboard/automations/${automation.id}`} aria-label={`Edit ${automation.name}`}>
              <Pencil aria-hidden="true" /> Edit
            </Link>
          </Button>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="duplicate" />
            <input type="hidden" name="automationId" value={automation.id} />
            <Button type="submit" variant="outline" size="sm" aria-label={`Duplicate ${automation.name}`} disabled={busy('duplicate')}>
              <Copy aria-hidden="true" /> Duplicate
            </Button>
          </Form>
          <ConfirmAction
            label={
              <>
                <Trash2 aria-hidden="true" /> Delete
              </>
            }
            triggerProps={{
              variant: 'outline',
              size: 'sm',
              'aria-label': `Delete ${automation.name}`,
              className: 'text-destructive hover:text-destructive',
            }}
            title={`Delete "${automation.name}"?`}
            description="The automation and its schedule are deleted. Its past runs stay in your history. This cannot be undone."
            confirmLabel="Delete Automation"
            fields={{ intent: 'delete', automationId: automation.id }}
            destructive
          />
        </div>
      </td>
    </tr>
  )
}
