import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type AppLoadContext } from 'react-router'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import type { StepIssue } from '#common/automation-steps.ts'
import { automationFormSchema, scheduleFormField, scheduleOf, signInBlockOf } from './builder/automation-form.ts'

/**
 * The builder's action, for a new automation (`id` null) and an existing one: the form parsed
 * with the shared schema, then the service checks the steps and the plan's action limit. Its
 * step issues go back to the steps they name; the plan's limit is shown as such.
 */
export async function saveAutomation(form: FormData, context: AppLoadContext, id: string | null) {
  const user = requireMember(context)
  const submission = parseWithZod(form, { schema: automationFormSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), stepIssues: [] as StepIssue[], limitMessage: null, error: null }, { status: 400 })
  }
  const {
    signInFrom,
    signInTo,
    signInCheck,
    signInPresent,
    scheduleKind,
    scheduleEvery,
    scheduleUnit,
    scheduleTime,
    scheduleDays,
    scheduleDay,
    scheduleCron,
    scheduleTimeZone,
    schedulePaused,
    ...fields
  } = submission.value
  const block = signInBlockOf({ signInFrom, signInTo, signInCheck, signInPresent })
  // The form schema has checked the schedule already; this builds it.
  const schedule = scheduleOf({
    scheduleKind,
    scheduleEvery,
    scheduleUnit,
    scheduleTime,
    scheduleDays,
    scheduleDay,
    scheduleCron,
    scheduleTimeZone,
    schedulePaused,
  })
  const refuse = (issue: { path: string; message: string }) => {
    const reply = submission.reply({ fieldErrors: { [issue.path]: [issue.message] } })
    return data({ result: reply, stepIssues: [] as StepIssue[], limitMessage: null, error: issue.message }, { status: 400 })
  }
  if ('issue' in block) return refuse(block.issue)
  if ('issue' in schedule) return refuse(schedule.issue)
  const input = { ...fields, schedule: schedule.schedule, signInBlock: block.block }
  const caller = pageCaller(user)
  const { automations } = context.services
  // Saved over the version the editor started from: a fix or suggestion applied meanwhile is not lost.
  const version = Number(form.get('version'))
  const expectedVersion = Number.isInteger(version) && version > 0 ? version : undefined
  const outcome = await attempt(() =>
    // The whole automation as the member saw it: its runner's owner saving it approves it (docs/decisions/032).
    id === null ? automations.create(caller, input) : automations.update(id, caller, input, { expectedVersion, reviewed: true }),
  )
  if (!outcome.ok) {
    const error = outcome.error
    const issues = error.issues ?? []
    const stepIssues = issues.filter((issue) => issue.path === 'steps' || issue.path.startsWith('steps.'))
    const fieldErrors = Object.fromEntries(
      issues.filter((issue) => !stepIssues.includes(issue)).map((issue) => [fieldOf(issue.path), [issue.message]]),
    )
    const limitMessage = error.code === 'PLAN_LIMIT' ? error.message : null
    return data(
      {
        result: submission.reply({ formErrors: issues.length || limitMessage ? [] : [error.message], fieldErrors }),
        stepIssues,
        limitMessage,
        error: error.message,
      },
      { status: error.status },
    )
  }
  const flash = await flashHeader({
    type: 'success',
    title: id === null ? 'Automation created' : 'Automation saved',
    description: `"${outcome.value.name}" has ${outcome.value.steps.length === 1 ? '1 step' : `${outcome.value.steps.length} steps`}.`,
  })
  return redirect(`/dashboard/automations/${outcome.value.id}`, { headers: withCookies([flash]) })
}

/** The form field that shows the service's issue on an automation's field. */
function fieldOf(path: string): string {
  if (path === 'signInBlock.to') return 'signInTo'
  if (path === 'schedule' || path.startsWith('schedule.')) return scheduleFormField(path)
  if (path === 'enabled') return 'schedulePaused'
  return path
}

/** The builder's "Forget session": the automation's next cloud run starts signed out (docs/decisions/025). */
export async function forgetSession(context: AppLoadContext, id: string) {
  const caller = pageCaller(requireMember(context))
  const outcome = await attempt(() => context.services.vault.forgetSession(caller, id))
  const flash = await flashHeader(
    outcome.ok
      ? { type: 'success', title: 'Session forgotten', description: 'The next cloud run starts signed out.' }
      : { type: 'error', title: 'Could not forget the session', description: outcome.error.message },
  )
  return redirect(`/dashboard/automations/${id}`, { headers: withCookies([flash]) })
}
