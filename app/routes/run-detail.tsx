import { ArrowLeft, CircleX, Pencil, Play, RotateCw, StepForward } from 'lucide-react'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import type { Route } from './+types/run-detail'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { actionResult, type ActionResult } from '#app/lib/action-result.server.ts'
import { RunTimeline } from '#app/features/automations/run-timeline.tsx'
import { RunLiveView } from '#app/features/automations/run-live-view.tsx'
import { DataRows, ExtractedData, RunFacts, RunFilesCard, RunLog, Screenshots } from '#app/features/automations/run-details.tsx'
import { RunTraceCard } from '#app/features/automations/run-trace-card.tsx'
import { RunRepairs } from '#app/features/automations/run-repairs.tsx'
import { isActive, RunStatusBadge } from '#app/features/automations/run-status.tsx'
import { RunQueueNotice } from '#app/features/automations/run-queue-notice.tsx'
import { queueNotice, runDetail, type RunDetail } from '#app/features/automations/run-view.server.ts'
import { runAgainView } from '#app/features/automations/run-again-view.server.ts'
import { runApiRequest } from '#app/features/automations/run-api-request.ts'
import { RunApiRequestCard } from '#app/features/automations/run-api-request-card.tsx'
import { isUuid } from '#common/ids.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { useRunEvents } from '#app/features/automations/use-run-events.ts'
import { useRevalidateEvery } from '#app/lib/use-revalidate-every.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { Button } from '#app/components/ui/button.tsx'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  // Another member's run is as unknown as a missing one (an admin may look at any).
  const found = isUuid(params.id) ? await attempt(() => context.services.runs.get(params.id, pageCaller(user))) : null
  if (!found?.ok) throw data({ message: 'Run not found' }, { status: 404 })
  const run = found.value
  const { workspace } = pageCaller(user)
  const standing = await context.services.runs.queueStanding(run)
  const own = run.workspaceId === workspace.id && workspace.role !== 'viewer'
  const runAgain = own ? await runAgainView(context.services, user, run) : null
  // As Run again starts it: on the member's connected runner it ran on, else in the cloud.
  const deviceId = runAgain?.where === 'device' ? run.deviceId : null
  return {
    run: runDetail(run, standing ? queueNotice(standing, run.workspaceId === workspace.id) : null),
    own,
    runAgain,
    apiRequest: own && run.automationId ? runApiRequest(context.publicUrl, { ...run, automationId: run.automationId, deviceId }) : null,
  }
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const form = await request.formData()
  const intent = form.get('intent')
  if (!isUuid(params.id)) throw data({ message: 'Run not found' }, { status: 404 })
  const caller = pageCaller(user)
  if (intent === 'apply-fix') {
    const step = Number(form.get('step'))
    return actionResult(() => context.services.repairs.applyRepair(params.id, caller, Number.isInteger(step) && step > 0 ? step : 0), {
      success: (automation) => ({
        title: 'Fix applied',
        description: `Step ${step} of “${automation.name}” uses it from version ${automation.version} on.`,
      }),
      error: 'Could not apply the fix',
    })
  }
  if (intent === 'run-again') {
    // Where it ran, when that was the member's runner and the form says so; else in the cloud.
    const started = await attempt(() => context.services.runs.runAgain(params.id, caller, { onDevice: form.get('where') === 'device' }))
    if (started.ok) throw redirect(`/dashboard/runs/${started.value.id}`)
    return data<ActionResult>(
      { ok: false, error: { title: 'Could not start the run', description: started.error.message } },
      { status: started.error.status },
    )
  }
  if (intent === 'resume') {
    const resumed = await attempt(() => context.services.runs.resume(params.id, caller))
    if (resumed.ok) throw redirect(`/dashboard/runs/${resumed.value.id}`)
    return data<ActionResult>(
      { ok: false, error: { title: 'Could not resume the run', description: resumed.error.message } },
      { status: resumed.error.status },
    )
  }
  if (intent === 'continue') {
    return actionResult(() => context.services.personHelp.act(params.id, caller, { kind: 'continue' }), {
      success: () => ({ title: 'The run goes on', description: 'Its next step starts in a moment.' }),
      error: 'Could not continue the run',
    })
  }
  if (intent !== 'cancel') throw data({ message: 'Unknown action' }, { status: 400 })
  return actionResult(() => context.services.runs.cancel(params.id, caller), {
    success: (run) => ({
      title: 'Run cancelled',
      description: run.refundedAt ? 'It had not started: its credit is back.' : undefined,
    }),
    error: 'Could not cancel the run',
  })
}

export const meta = privatePageMeta('Run')

export default function RunPage() {
  const { run, own, runAgain, apiRequest } = useLoaderData<typeof loader>()
  useActionToast(useActionData<typeof action>())
  useRunEvents((event) => event.id === run.id)
  // The line moves when other workspaces' runs start, and their events are not ours to receive.
  useRevalidateEvery(QUEUE_REFRESH_MS, run.queue !== null)
  return (
    <main className="space-y-6">
      <div className="space-y-2">
        <Link to="/dashboard" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden="true" /> Automation History
        </Link>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="space-y-1">
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="text-2xl font-semibold tracking-tight">{run.automationName}</h1>
              <p aria-live="polite" aria-atomic="true">
                <span className="sr-only">Status: </span>
                <RunStatusBadge status={run.status} />
              </p>
            </div>
            <p className="font-mono text-xs text-muted-foreground">Run {run.id}</p>
          </div>
          <div className="flex flex-wrap gap-2">
            {own && run.automationId ? (
              <Link
                to={`/dashboard/automations/${run.automationId}`}
                className="inline-flex items-center gap-1 text-sm text-primary hover:underline"
              >
                <Pencil className="size-4" aria-hidden="true" /> Edit automation
              </Link>
            ) : null}
            {own && run.automationId && run.resumeAt !== null ? <ResumeRun step={run.resumeAt} /> : null}
            {own && runAgain && run.automationId && !isActive(run.status) ? (
              <RunAgain withInputs={run.inputs.length > 0} where={runAgain} />
            ) : null}
            {own && isActive(run.status) ? (
              <ConfirmAction
                label={
                  <>
                    <CircleX aria-hidden="true" /> Cancel run
                  </>
                }
                triggerProps={{ variant: 'outline', size: 'sm' }}
                title="Cancel this run?"
                description={
                  run.status === 'queued'
                    ? 'It has not started yet, so its credit comes back.'
                    : 'It stops before its next step. The credit it cost is not refunded: the work has started.'
                }
                confirmLabel="Cancel Run"
                fields={{ intent: 'cancel' }}
                destructive
              />
            ) : null}
          </div>
        </div>
      </div>
      {run.queue ? <RunQueueNotice queue={run.queue} /> : null}
      {run.error ? (
        <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm">
          <strong>Error:</strong> {run.error}
        </p>
      ) : null}
      <RunFacts run={run} />
      {run.waiting ? <WaitingForPerson waiting={run.waiting} canAct={own} /> : null}
      {run.runner === 'cloud' && run.status === 'running' ? (
        <RunLiveView key={run.id} runId={run.id} canAct={own && run.waiting !== null} />
      ) : null}
      <RunRepairs repairs={run.repairs} canApply={own && run.automationId !== null} />
      <RunTimeline timeline={run.timeline} filesRemoved={run.filesRemoved} />
      {run.trace ? <RunTraceCard runId={run.id} trace={run.trace} /> : null}
      <RunLog log={run.log} />
      <DataRows runId={run.id} data={run.dataRows} />
      <RunFilesCard files={run.files} />
      <ExtractedData runId={run.id} extracted={run.extracted} />
      <Screenshots screenshots={run.screenshots} />
      {apiRequest ? <RunApiRequestCard command={apiRequest} /> : null}
    </main>
  )
}

/** A run that asks a person (docs/decisions/059): what for, until when, and Continue for those who may act. */
function WaitingForPerson({ waiting, canAct }: { waiting: NonNullable<RunDetail['waiting']>; canAct: boolean }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'continue'
  return (
    <section
      role="region"
      aria-labelledby="run-waiting"
      className="space-y-3 rounded-md border border-amber-500/50 bg-amber-500/10 p-4 text-sm"
    >
      <h2 id="run-waiting" className="text-base font-semibold">
        Waiting for a person
      </h2>
      <p>
        Step {waiting.step} asks: <strong className="whitespace-pre-wrap">{waiting.message}</strong>
      </p>
      <p>
        {canAct ? 'Act in the live view below, then press Continue. ' : 'Someone who may edit this workspace’s automations can act on it. '}
        The run fails at <time dateTime={waiting.until.iso}>{waiting.until.label}</time> if nobody continues it.
      </p>
      {canAct ? (
        <Form method="post">
          <input type="hidden" name="intent" value="continue" />
          <Button type="submit" size="sm" disabled={busy}>
            <Play aria-hidden="true" /> {busy ? 'Continuing...' : 'Continue'}
          </Button>
        </Form>
      ) : null}
    </section>
  )
}

/** How often a queued cloud run's page reads its place in line again (docs/decisions/029). */
const QUEUE_REFRESH_MS = 5_000

/** Continues this failed run as a new one from the step it stopped at, keeping the rows it finished (docs/decisions/046). */
function ResumeRun({ step }: { step: number }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'resume'
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="resume" />
      <Button type="submit" size="sm" disabled={busy}>
        <StepForward aria-hidden="true" /> {busy ? 'Resuming...' : `Resume from step ${step}`}
      </Button>
    </Form>
  )
}

/** Starts the same automation again with this run's inputs and rows; the new run's page opens. */
function RunAgain({
  withInputs,
  where,
}: {
  withInputs: boolean
  where: { where: 'device'; name: string } | { where: 'cloud'; cost: number; credits: number }
}) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'run-again'
  const label = withInputs ? 'Run again with the same inputs' : 'Run again'
  if (where.where === 'cloud') {
    const credits = `${where.cost} credit${where.cost === 1 ? '' : 's'}`
    return (
      <ConfirmAction
        label={
          <>
            <RotateCw aria-hidden="true" /> {busy ? 'Starting...' : `${label} in the cloud`}
          </>
        }
        title="Run it again in the cloud?"
        description={`A cloud run costs ${credits}; you have ${where.credits}.`}
        confirmLabel={`Run in the cloud (${credits})`}
        fields={{ intent: 'run-again', where: 'cloud' }}
        triggerProps={{ variant: 'outline', size: 'sm', disabled: busy }}
      />
    )
  }
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="run-again" />
      <input type="hidden" name="where" value="device" />
      <Button type="submit" variant="outline" size="sm" disabled={busy}>
        <RotateCw aria-hidden="true" /> {busy ? 'Starting...' : `${label} on “${where.name}”`}
      </Button>
    </Form>
  )
}
