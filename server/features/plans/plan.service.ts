import { asc } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { subscriptionPlans } from '#server/db/schema/index.ts'

export type Plan = typeof subscriptionPlans.$inferSelect

export function createPlanService(db: Db) {
  return {
    async list(): Promise<Plan[]> {
      return db.select().from(subscriptionPlans).orderBy(asc(subscriptionPlans.sortOrder), asc(subscriptionPlans.price))
    },
  }
}

export type PlanService = ReturnType<typeof createPlanService>
