import type { AppLoadContext } from 'react-router'
import { attempt } from '#app/lib/attempt.server.ts'
import type { PlanRow } from './plan-row.ts'

/** Every plan with its member count and why it is not for sale, or the error that stopped reading them. */
export async function loadPlanRows(context: AppLoadContext): Promise<{ plans: PlanRow[]; error: string | null }> {
  const { plans, billing } = context.services
  const loaded = await attempt(() => Promise.all([plans.list(), plans.memberCounts()]))
  if (!loaded.ok) return { plans: [], error: loaded.error.message }
  const [list, members] = loaded.value
  return {
    error: null,
    plans: list.map(({ createdAt: _createdAt, updatedAt: _updatedAt, ...plan }) => {
      const sale = billing.saleOf(plan)
      return { ...plan, notForSale: sale.forSale ? null : sale.reason, members: members[plan.slug] ?? 0 }
    }),
  }
}
