import { data, type AppLoadContext } from 'react-router'
import { actionResult } from '#app/lib/action-result.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { inspectInputSchema, planInputSchema } from '#common/planning.ts'
import type { z } from '#common/zod.ts'
import type { Inspection } from '#server/features/planning/inspector.ts'
import type { PlanResult } from '#server/features/planning/planning.service.ts'

// The builder's helpers that stay on the page (fetchers): inspecting a page, planning from a
// sentence, applying a suggestion. Each checks the caller first, then its input, then calls the
// service the API calls too (POST /api/automations/inspect, /plan, …/suggestions/…/apply).

export type InspectAnswer =
  { intent: 'inspect'; inspection: Inspection; error: null } | { intent: 'inspect'; inspection: null; error: string }
export type PlanAnswer = { intent: 'plan'; plan: PlanResult; error: null } | { intent: 'plan'; plan: null; error: string }

const text = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === 'string' && value.trim() ? value : undefined
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  return issue ? `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}` : 'Invalid input'
}

function stepsOf(form: FormData): unknown[] | string {
  const raw = text(form, 'steps')
  if (!raw) return []
  try {
    const value: unknown = JSON.parse(raw)
    return Array.isArray(value) ? value : 'steps must be a list of steps'
  } catch {
    return 'steps must be a list of steps'
  }
}

export async function inspectPage(request: Request, form: FormData, context: AppLoadContext) {
  const user = requireMember(context)
  const steps = stepsOf(form)
  const parsed = typeof steps === 'string' ? null : inspectInputSchema.safeParse({ url: text(form, 'url'), steps })
  if (!parsed?.success) {
    const error = typeof steps === 'string' ? steps : parsed ? firstIssue(parsed.error) : 'Invalid input'
    return data<InspectAnswer>({ intent: 'inspect', inspection: null, error }, { status: 400 })
  }
  const outcome = await attempt(() => context.services.planning.inspect(pageCaller(user), parsed.data, request.signal))
  if (!outcome.ok)
    return data<InspectAnswer>({ intent: 'inspect', inspection: null, error: outcome.error.message }, { status: outcome.error.status })
  return data<InspectAnswer>({ intent: 'inspect', inspection: outcome.value, error: null })
}

export async function planSteps(request: Request, form: FormData, context: AppLoadContext) {
  const user = requireMember(context)
  const parsed = planInputSchema.safeParse({
    description: form.get('description') ?? '',
    startUrl: text(form, 'startUrl'),
    planner: text(form, 'planner'),
  })
  if (!parsed.success) return data<PlanAnswer>({ intent: 'plan', plan: null, error: firstIssue(parsed.error) }, { status: 400 })
  const outcome = await attempt(() => context.services.planning.plan(pageCaller(user), parsed.data, request.signal))
  if (!outcome.ok) return data<PlanAnswer>({ intent: 'plan', plan: null, error: outcome.error.message }, { status: outcome.error.status })
  return data<PlanAnswer>({ intent: 'plan', plan: outcome.value, error: null })
}

export async function applySuggestion(form: FormData, context: AppLoadContext, automationId: string) {
  const user = requireMember(context)
  const suggestionId = String(form.get('suggestionId') ?? '').slice(0, 64)
  return actionResult(() => context.services.suggestions.apply(automationId, pageCaller(user), suggestionId), {
    intent: 'apply-suggestion',
    success: (automation) => ({
      title: 'Suggestion applied',
      description: `“${automation.name}” is now at version ${automation.version}.`,
    }),
    error: 'Could not apply the suggestion',
  })
}
