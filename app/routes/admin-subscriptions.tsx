import { useEffect } from 'react'
import { useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-subscriptions'
import { actionResult } from '#app/lib/action-result.server.ts'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { AddPlanForm } from '#app/features/admin/plans/add-plan-form.tsx'
import { PlanCards } from '#app/features/admin/plans/plan-cards.tsx'
import { loadPlanRows } from '#app/features/admin/plans/plan-rows.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { requireAdminAction, requireAdminMember } from '#app/lib/guards.server.ts'
import { toast } from '#app/lib/toast.ts'
import { ValidationError } from '#common/errors.ts'
import { MISSING_PLAN_NAME, planCreateSchema } from '#common/plans.ts'

export async function loader({ context }: Route.LoaderArgs) {
  requireAdminMember(context)
  return loadPlanRows(context)
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireAdminAction(context)
  const form = await request.formData()
  const intent = String(form.get('intent'))
  const id = String(form.get('planId') ?? '').slice(0, 100)
  const { plans } = context.services
  if (intent === 'add-plan') {
    const input = Object.fromEntries(form)
    if (!String(input.name ?? '').trim()) {
      return actionResult(
        () =>
          Promise.reject(new ValidationError(MISSING_PLAN_NAME.description, [{ path: 'name', message: MISSING_PLAN_NAME.description }])),
        { intent: intent, success: { title: '' }, error: MISSING_PLAN_NAME.title },
      )
    }
    return actionResult(() => plans.create(actor, parseInput(planCreateSchema, { ...input, highlighted: input.highlighted === 'on' })), {
      intent: intent,
      success: { title: 'Plan added' },
      error: 'Error adding plan',
    })
  }
  if (intent === 'delete-plan') {
    return actionResult(() => plans.remove(actor, id), { intent: intent, success: { title: 'Plan deleted' }, error: 'Error deleting plan' })
  }
  return actionResult(() => Promise.reject(new ValidationError('Unknown action')), {
    intent: intent,
    success: { title: '' },
    error: 'Error updating plan',
  })
}

export default function AdminSubscriptionsTab() {
  const { plans, error } = useLoaderData<typeof loader>()
  useActionToast(useActionData<typeof action>())
  useEffect(() => {
    if (error) toast.error('Error fetching plans', { description: error })
  }, [error])
  return (
    <section aria-label="Subscriptions" className="space-y-6">
      <AddPlanForm />
      <PlanCards plans={plans} />
    </section>
  )
}
