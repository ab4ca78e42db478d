import type { Plan } from '#server/features/plans/plan.service.ts'

/** A plan as the Subscriptions tab shows it and its form edits it: its columns, who is on it, and whether it is for sale. */
export type PlanRow = Omit<Plan, 'createdAt' | 'updatedAt'> & {
  /** Why members cannot buy it ('Not for sale: add its Paddle price id.'), or null. */
  notForSale: string | null
  members: number
}
