import { ArrowLeft } from 'lucide-react'
import { data, Link, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-plan'
import { actionResult } from '#app/lib/action-result.server.ts'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { PlanForm } from '#app/features/admin/plans/plan-form.tsx'
import { loadPlanRows } from '#app/features/admin/plans/plan-rows.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { requireAdminAction, requireAdminMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { PLAN_SWITCHES, planUpdateSchema } from '#common/plans.ts'

export async function loader({ params, context }: Route.LoaderArgs) {
  requireAdminMember(context)
  const { plans, error } = await loadPlanRows(context)
  if (error) throw data({ message: error }, { status: 503 })
  const plan = plans.find((candidate) => candidate.id === params.planId)
  if (!plan) throw data({ message: 'Plan not found' }, { status: 404 })
  return { plan }
}

export const meta = privatePageMeta('Edit plan')

/** Saves the whole form: its text fields as typed (the schema makes them numbers), its checkboxes as on or off. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = requireAdminAction(context)
  const form = await request.formData()
  const { intent: _intent, ...fields } = Object.fromEntries(form)
  const switches = Object.fromEntries(PLAN_SWITCHES.map((name) => [name, form.get(name) === 'on']))
  return actionResult(
    () => context.services.plans.update(actor, params.planId, parseInput(planUpdateSchema.strict(), { ...fields, ...switches })),
    {
      intent: 'save-plan',
      success: { title: 'Plan updated' },
      error: 'Error updating plan',
    },
  )
}

export default function AdminPlanPage() {
  const { plan } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  useActionToast(result)
  return (
    <section aria-labelledby="plan-heading" className="space-y-4">
      <Link to="/admin/subscriptions" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden="true" /> All plans
      </Link>
      <h2 id="plan-heading" className="text-xl font-semibold [overflow-wrap:anywhere]">
        {plan.name}{' '}
        <span className="text-sm font-normal text-muted-foreground">
          {plan.members === 1 ? '1 member' : `${plan.members.toLocaleString('en-US')} members`}
        </span>
      </h2>
      <PlanForm key={plan.id} plan={plan} refusal={result && !result.ok ? result : null} />
    </section>
  )
}
