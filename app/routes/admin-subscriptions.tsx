import { useEffect } from 'react'
import { useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-subscriptions'
import { actionResult } from '#app/lib/action-result.server.ts'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { AddPlanForm } from '#app/features/admin/plans/add-plan-form.tsx'
import { PlansTable } from '#app/features/admin/plans/plans-table.tsx'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { requireAdminAction, requireAdminMember } from '#app/lib/guards.server.ts'
import { toast } from '#app/lib/toast.ts'
import { ValidationError } from '#common/errors.ts'
import { MISSING_PLAN_NAME, PLAN_SWITCHES, planCreateSchema, planUpdateSchema } from '#common/plans.ts'

export async function loader({ context }: Route.LoaderArgs) {
  requireAdminMember(context)
  const loaded = await attempt(() => Promise.all([context.services.plans.list(), context.services.plans.memberCounts()]))
  if (!loaded.ok) return { plans: [], error: loaded.error.message }
  const [plans, members] = loaded.value
  // Why a plan cannot be bought (no usable price id): the table says so beside its price id.
  const notForSale = (plan: (typeof plans)[number]) => {
    const sale = context.services.billing.saleOf(plan)
    return sale.forSale ? null : sale.reason
  }
  return {
    error: null,
    plans: plans.map((plan) => ({
      id: plan.id,
      slug: plan.slug,
      name: plan.name,
      price: plan.price,
      creditsPerMonth: plan.creditsPerMonth,
      description: plan.description,
      features: plan.features,
      highlighted: plan.highlighted,
      paddlePriceId: plan.paddlePriceId,
      monthlyRunLimit: plan.monthlyRunLimit,
      actionLimit: plan.actionLimit,
      monthlyModelCalls: plan.monthlyModelCalls,
      aiPlanning: plan.aiPlanning,
      modelRepair: plan.modelRepair,
      suggestions: plan.suggestions,
      teams: plan.teams,
      seats: plan.seats,
      advancedTemplates: plan.advancedTemplates,
      triggerUrls: plan.triggerUrls,
      webhooks: plan.webhooks,
      vaultSecrets: plan.vaultSecrets,
      cloudConcurrency: plan.cloudConcurrency,
      devices: plan.devices,
      scheduleMinMinutes: plan.scheduleMinMinutes,
      dataRowLimit: plan.dataRowLimit,
      runFilesDays: plan.runFilesDays,
      personWaitMinutes: plan.personWaitMinutes,
      scripts: plan.scripts,
      sortOrder: plan.sortOrder,
      notForSale: notForSale(plan),
      members: members[plan.slug] ?? 0,
    })),
  }
}

/** One field of a plan as the table posts it: the form's string made into the field's type. */
function fieldValue(field: string, value: FormDataEntryValue | undefined): unknown {
  if ((PLAN_SWITCHES as readonly string[]).includes(field)) return value === 'true'
  return typeof value === 'string' ? value : undefined
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
  if (intent === 'update-plan') {
    const field = String(form.get('field'))
    return actionResult(
      () => plans.update(actor, id, parseInput(planUpdateSchema.strict(), { [field]: fieldValue(field, form.get('value') ?? undefined) })),
      { intent: intent, success: { title: 'Plan updated' }, error: 'Error updating plan' },
    )
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
      <PlansTable plans={plans} />
    </section>
  )
}
