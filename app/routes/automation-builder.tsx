import { data, redirect, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/automation-builder'
import type { StepData } from '#app/features/automations/builder/step-drafts.ts'
import { BuilderPage } from '#app/features/automations/builder/builder-page.tsx'
import { dateTimeLabel } from '#app/features/automations/run-view.server.ts'
import { isUuid } from '#common/ids.ts'
import { describeSchedule } from '#common/schedule-words.ts'
import { forgetSession, saveAutomation } from '#app/features/automations/save-automation.server.ts'
import { applySuggestion, inspectPage, planSteps } from '#app/features/automations/builder/assist-actions.server.ts'
import { builderAssist, suggestionsView } from '#app/features/automations/builder/builder-view.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { TriggerCard } from '#app/features/automations/trigger/trigger-card.tsx'
import { issueTrigger, revokeTrigger } from '#app/features/automations/trigger/trigger-actions.server.ts'
import { triggerView } from '#app/features/automations/trigger/trigger-view.server.ts'
import { RunnerApprovalCard } from '#app/features/automations/runner/runner-approval-card.tsx'
import { approveRunner } from '#app/features/automations/runner/runner-approval-actions.server.ts'
import { runnerApprovalView } from '#app/features/automations/runner/runner-approval-view.server.ts'
import { KeptRowsCard } from '#app/features/automations/data-rows/kept-rows-card.tsx'
import { forgetRows, keepRows } from '#app/features/automations/data-rows/kept-rows-actions.server.ts'
import { keptRowsView } from '#app/features/automations/data-rows/kept-rows-view.server.ts'
import { AutomationFilesCard } from '#app/features/automations/files/automation-files-card.tsx'
import { keepFile, removeFile } from '#app/features/automations/files/automation-files-actions.server.ts'
import { automationFilesView } from '#app/features/automations/files/automation-files-view.server.ts'

// One route for /dashboard/automations/new and /dashboard/automations/<id>: every route is an entry
// of the manifest each page loads (docs/decisions/008-page-weight.md).
const NEW = 'new'

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const caller = pageCaller(user)
  const { plan, limit } = await context.services.automations.actionLimitOf(caller.workspace.id)
  const base = {
    // New schedules start in it and run times show in it; null: the browser's (docs/decisions/036).
    memberTimeZone: user.profile.timeZone,
    plan: { name: plan, actionLimit: limit },
    runLimits: context.services.runLimits,
    assist: await builderAssist(context.services, caller.workspace.id),
  }
  const readOnly = caller.workspace.role === 'viewer'
  if (params.id === NEW) {
    // A viewer changes nothing in the workspace: there is nothing to build here for them.
    if (readOnly) throw redirect('/dashboard')
    const runners = await context.services.devices.runnersFor(caller)
    return {
      ...base,
      runners,
      runner: null,
      automation: null,
      suggestions: null,
      trigger: null,
      keptRows: null,
      files: null,
      version: NEW,
      scheduleWords: null,
      readOnly,
    }
  }
  const found = isUuid(params.id) ? await attempt(() => context.services.automations.get(params.id, caller)) : null
  // Only the workspace's: another workspace's is as unknown as a missing one.
  if (!found?.ok || found.value.workspaceId !== caller.workspace.id) throw data({ message: 'Automation not found' }, { status: 404 })
  const automation = found.value
  const sessionSavedAt = await context.services.vault.sessionSavedAt(caller.workspace.id, automation.id)
  // The caller's own runners, and the one it already names (maybe a colleague's): docs/decisions/032, amended.
  const runners = await context.services.devices.runnersFor(caller, automation.deviceId)
  return {
    ...base,
    readOnly,
    runners,
    runner: runnerApprovalView(automation, runners),
    suggestions: await suggestionsView(context.services, automation.id, caller),
    trigger: await triggerView(context.services, automation.id, automation.steps, caller),
    keptRows: await keptRowsView(context.services, automation.id, automation.steps, caller),
    files: await automationFilesView(context.services, automation.id, automation.steps, caller),
    version: automation.updatedAt.toISOString(),
    scheduleWords: automation.schedule
      ? `${automation.enabled ? 'Runs by itself' : 'Schedule paused'}: ${describeSchedule(automation.schedule)}.`
      : null,
    automation: {
      name: automation.name,
      description: automation.description,
      schedule: automation.schedule ? { ...automation.schedule, paused: !automation.enabled } : null,
      selfRepair: automation.selfRepair,
      keepSession: automation.keepSession,
      trace: automation.trace,
      askPersonOnCaptcha: automation.askPersonOnCaptcha,
      signInBlock: automation.signInBlock,
      runTimeLimitSeconds: automation.runTimeLimitSeconds,
      runStepLimit: automation.runStepLimit,
      deviceId: automation.deviceId,
      sessionSavedLabel: sessionSavedAt ? dateTimeLabel(sessionSavedAt) : null,
      version: automation.version,
      steps: automation.steps as StepData[],
    },
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  // Who is asking comes first: a visitor is sent to sign in whatever the address holds.
  requireMember(context)
  if (params.id !== NEW && !isUuid(params.id)) throw data({ message: 'Automation not found' }, { status: 404 })
  const form = await request.formData()
  const intent = form.get('intent')
  if (intent === 'inspect') return inspectPage(request, form, context)
  if (intent === 'plan') return planSteps(request, form, context)
  if (intent === 'apply-suggestion' && params.id !== NEW) return applySuggestion(form, context, params.id)
  if (intent === 'issue-trigger' && params.id !== NEW) return issueTrigger(context, params.id)
  if (intent === 'revoke-trigger' && params.id !== NEW) return revokeTrigger(context, params.id)
  if (intent === 'forget-session' && params.id !== NEW) return forgetSession(context, params.id)
  if (intent === 'approve-runner' && params.id !== NEW) return approveRunner(context, params.id, form)
  if (intent === 'keep-rows' && params.id !== NEW) return keepRows(context, params.id, form)
  if (intent === 'forget-rows' && params.id !== NEW) return forgetRows(context, params.id)
  if (intent === 'keep-file' && params.id !== NEW) return keepFile(context, params.id, form)
  if (intent === 'remove-file' && params.id !== NEW) return removeFile(context, params.id, form)
  return saveAutomation(form, context, params.id === NEW ? null : params.id)
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  privatePageMeta(loaderData?.automation ? 'Edit Automation' : 'New Automation')({ matches })

const EMPTY = {
  name: '',
  description: '',
  schedule: null,
  selfRepair: true,
  keepSession: false,
  trace: 'off' as const,
  askPersonOnCaptcha: false,
  signInBlock: null,
  runTimeLimitSeconds: null,
  runStepLimit: null,
  deviceId: null,
  sessionSavedLabel: null,
  version: null,
  steps: [],
}

export default function AutomationBuilderPage() {
  const {
    automation,
    memberTimeZone,
    version,
    plan,
    runLimits,
    runners,
    runner,
    assist,
    suggestions,
    trigger,
    keptRows,
    files,
    scheduleWords,
    readOnly,
  } = useLoaderData<typeof loader>()
  const data = useActionData<typeof action>()
  // The page's own save; the helpers' answers go to their fetchers.
  const answer = data && 'result' in data ? data : undefined
  return automation ? (
    <BuilderPage
      title={`Edit ${automation.name}`}
      intro={
        readOnly
          ? 'You are a viewer in this workspace: you can read these steps, not save changes.'
          : (scheduleWords ?? 'Runs only when you start it.')
      }
      automation={automation}
      memberTimeZone={memberTimeZone}
      version={version}
      plan={plan}
      runLimits={runLimits}
      runners={runners}
      assist={assist}
      suggestions={suggestions}
      answer={answer}
    >
      {runner ? <RunnerApprovalCard runner={runner} readOnly={readOnly} /> : null}
      {keptRows ? <KeptRowsCard kept={keptRows} readOnly={readOnly} /> : null}
      {files ? <AutomationFilesCard view={files} readOnly={readOnly} /> : null}
      {trigger ? <TriggerCard trigger={trigger} readOnly={readOnly} /> : null}
    </BuilderPage>
  ) : (
    <BuilderPage
      title="New Automation"
      intro="Name it, add its steps, and save. Run it in the cloud from your dashboard, or with the extension and desktop apps."
      automation={EMPTY}
      memberTimeZone={memberTimeZone}
      version={version}
      plan={plan}
      runLimits={runLimits}
      runners={runners}
      assist={assist}
      suggestions={suggestions}
      answer={answer}
    />
  )
}
