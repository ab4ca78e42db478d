import { Coins, Download, LayoutTemplate, Plus, Sparkles } from 'lucide-react'
import { useEffect } from 'react'
import { data, Link, redirect, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/dashboard'
import { Pagination } from '#app/components/pagination.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { actionResult } from '#app/lib/action-result.server.ts'
import { AutomationsList } from '#app/features/automations/automations-list.tsx'
import { RecentActivity } from '#app/features/automations/recent-activity.tsx'
import { RunsWaiting } from '#app/features/automations/runs-waiting.tsx'
import { INPUT_FIELD_PREFIX } from '#app/features/automations/run-in-cloud.tsx'
import { dataSourceFromForm } from '#app/features/automations/data-rows/data-rows-form.server.ts'
import { RunFilters, RunHistoryTable } from '#app/features/automations/run-history.tsx'
import { loadDashboard } from '#app/features/automations/dashboard-view.server.ts'
import { isUuid, NIL_UUID } from '#common/ids.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { useRunEvents } from '#app/features/automations/use-run-events.ts'
import { CreditActivity } from '#app/features/dashboard/credit-activity.tsx'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { toast } from '#app/lib/toast.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

const PROFILE_ISSUE = ['Profile loading issue', 'Using default profile settings. Some features may be limited.'] as const

export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  return loadDashboard(context, user, new URL(request.url).searchParams)
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const form = await request.formData()
  const intent = String(form.get('intent'))
  const automationId = form.get('automationId')
  const caller = pageCaller(user)
  const { automations, runs } = context.services
  if (!isUuid(automationId)) {
    return data<ActionResult>(
      { ok: false, error: { title: 'Automation not found', description: 'It may have been deleted.' } },
      { status: 404 },
    )
  }
  if (intent === 'run-cloud') {
    const inputs = inputsOf(form)
    const rows = await dataSourceFromForm(form)
    return startRun(
      () => runs.start(automationId, caller, { runner: 'cloud', trigger: 'manual', inputs, data: rows?.source }),
      'runs in the cloud as soon as a worker is free.',
    )
  }
  if (intent === 'run-device') {
    const deviceId = String(form.get('deviceId') ?? '')
    return startRun(
      () =>
        runs.start(automationId, caller, { runner: 'client', trigger: 'manual', device: { id: isUuid(deviceId) ? deviceId : NIL_UUID } }),
      'runs on your local runner when it takes it up (aether-runner serve).',
    )
  }
  if (intent === 'duplicate') {
    return actionResult(() => automations.duplicate(automationId, caller), {
      success: (copy) => ({ title: 'Automation duplicated', description: `"${copy.name}" was created.` }),
      error: 'Could not duplicate the automation',
    })
  }
  if (intent === 'pause' || intent === 'resume') {
    // Only whether it fires changes: the schedule itself is kept (docs/decisions/036).
    return actionResult(() => automations.update(automationId, caller, { enabled: intent === 'resume' }), {
      success: (automation) =>
        intent === 'pause'
          ? {
              title: 'Schedule paused',
              description: `"${automation.name}" keeps its schedule and does not run by itself until you resume it.`,
            }
          : { title: 'Schedule resumed', description: `"${automation.name}" runs on its schedule again.` },
      error: intent === 'pause' ? 'Could not pause the schedule' : 'Could not resume the schedule',
    })
  }
  if (intent === 'delete') {
    return actionResult(() => automations.remove(automationId, caller), {
      success: () => ({ title: 'Automation deleted', description: 'Its past runs stay in your history.' }),
      error: 'Could not delete the automation',
    })
  }
  return data<ActionResult>({ ok: false, error: { title: 'Unknown action' } }, { status: 400 })
}

/** Starts a run and opens its page with a "Run queued" notice saying where it runs; a refusal stays here with the reason. */
async function startRun(start: () => Promise<{ id: string; automationName: string }>, where: string) {
  const outcome = await attempt(start)
  if (!outcome.ok) {
    return data<ActionResult>(
      { ok: false, error: { title: 'Could not start the run', description: outcome.error.message }, code: outcome.error.code },
      { status: outcome.error.status },
    )
  }
  const flash = await flashHeader({ type: 'success', title: 'Run queued', description: `"${outcome.value.automationName}" ${where}` })
  return redirect(`/dashboard/runs/${outcome.value.id}`, { headers: withCookies([flash]) })
}

/** The values "Run in cloud" asked for (`input.<name>` fields); the service checks them against the steps. */
function inputsOf(form: FormData): Record<string, string> | undefined {
  const entries = [...form.entries()]
    .filter(([key]) => key.startsWith(INPUT_FIELD_PREFIX))
    .map(([key, value]) => [key.slice(INPUT_FIELD_PREFIX.length), String(value)] as const)
  return entries.length ? Object.fromEntries(entries) : undefined
}

export const meta = privatePageMeta('Dashboard')

export default function Dashboard() {
  const {
    name,
    planName,
    credits,
    profileIssue,
    loadError,
    extensionUrl,
    ledger,
    recent,
    waiting,
    history,
    automations,
    automationNames,
    runners,
    canChange,
    memberTimeZone,
  } = useLoaderData<typeof loader>()
  useActionToast(useActionData<typeof action>())
  useEffect(() => {
    if (profileIssue) toast.error(PROFILE_ISSUE[0], { description: PROFILE_ISSUE[1] })
  }, [profileIssue])
  useEffect(() => {
    if (loadError) toast.error('Error loading automations', { description: loadError })
  }, [loadError])
  // Any change to one of the member's runs may touch a list here (a new run, a status, a last run).
  useRunEvents(() => true)

  const query = (changes: Record<string, string | number | undefined>) => {
    const merged: Record<string, string | number | undefined> = {
      status: history.filters.status,
      automation: history.filters.automation,
      page: history.page,
      apage: automations.page,
      ...changes,
    }
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(merged)) {
      if (value !== undefined && value !== '' && !((key === 'page' || key === 'apage') && value === 1)) params.set(key, String(value))
    }
    const text = params.toString()
    return text ? `/dashboard?${text}` : '/dashboard'
  }

  return (
    <main className="space-y-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Automation History</h1>
        <p className="text-muted-foreground">{name ? `Welcome, ${name}.` : 'Welcome to your dashboard.'}</p>
      </header>
      <RunsWaiting runs={waiting} />
      {profileIssue ? (
        <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm">
          <strong>{PROFILE_ISSUE[0]}:</strong> {PROFILE_ISSUE[1]}
        </p>
      ) : null}
      {loadError ? (
        <p role="alert" className="rounded-md border border-destructive/50 p-3 text-sm">
          {loadError}{' '}
          <a href="/dashboard" className="font-medium underline underline-offset-4">
            Reload
          </a>
        </p>
      ) : null}
      <section aria-label="Account summary" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Card>
          <CardHeader>
            <CardDescription>Current plan</CardDescription>
            <p className="flex items-center gap-2 text-2xl leading-tight font-semibold tracking-tight">
              <Sparkles className="size-5 text-primary" aria-hidden="true" /> {planName}
            </p>
          </CardHeader>
          <CardContent>
            <Link to="/billing" className="text-sm text-primary hover:underline">
              Manage plan
            </Link>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>Credits remaining</CardDescription>
            <p className="flex items-center gap-2 text-2xl leading-tight font-semibold tracking-tight">
              <Coins className="size-5 text-primary" aria-hidden="true" /> {credits}
            </p>
          </CardHeader>
        </Card>
      </section>
      <section className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle level={2}>Quick Start</CardTitle>
            <CardDescription>
              Build an automation step by step, then run it in the cloud or with the Aether extension and desktop apps.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-wrap items-center gap-4">
            {canChange ? (
              <Button asChild>
                <Link to="/dashboard/automations/new">
                  <Plus /> Create New Automation
                </Link>
              </Button>
            ) : null}
            <Button asChild variant="outline">
              <Link to="/dashboard/templates">
                <LayoutTemplate /> Start from a template
              </Link>
            </Button>
            <a href={extensionUrl} target="_blank" rel="noopener noreferrer" className="text-sm text-primary hover:underline">
              <Download className="mr-1 inline size-4" aria-hidden="true" />
              Get the browser extension
            </a>
          </CardContent>
        </Card>
        <RecentActivity runs={recent} />
      </section>
      <AutomationsList
        automations={automations.rows}
        total={automations.total}
        memberTimeZone={memberTimeZone}
        readOnly={!canChange}
        runners={runners}
      >
        <Pagination
          page={automations.page}
          pageCount={automations.pageCount}
          href={(n) => query({ apage: n })}
          label="My Automations pages"
        />
      </AutomationsList>
      <section aria-labelledby="history-heading" className="space-y-4">
        <div className="space-y-1">
          <h2 id="history-heading" className="text-lg font-semibold">
            Run History
          </h2>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {history.total === 1 ? '1 run' : `${history.total} runs`}
            {history.filters.status || history.filters.automation ? ' match the filters' : ''}, newest first. Statuses update live.
          </p>
        </div>
        <RunFilters
          filters={history.filters}
          automations={automationNames}
          hidden={automations.page > 1 ? { apage: String(automations.page) } : {}}
        />
        <RunHistoryTable runs={history.runs} caption="Automation History: your runs, newest first" />
        <Pagination page={history.page} pageCount={history.pageCount} href={(n) => query({ page: n })} label="Run History pages" />
      </section>
      <CreditActivity entries={ledger} />
    </main>
  )
}
