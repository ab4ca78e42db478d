import { and, asc, count, eq, gt, isNull, like, lte, max, or, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/client.ts'
import { Conflict, LimitReached, NotFound } from '#common/errors.ts'
import { isUuid } from '#common/ids.ts'
import { MAX_PLAN_ORDER, type PlanCreate, type PlanUpdate } from '#common/plans.ts'
import { slugify, uniqueSlug } from '#common/slug.ts'
import type { Db } from '#server/db/client.ts'
import { isForeignKeyViolation, isUniqueViolation } from '#server/db/errors.ts'
import { subscriptionPlans, workspaces } from '#server/db/schema/index.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'

export type Plan = typeof subscriptionPlans.$inferSelect

/** What a workspace's plan includes (docs/decisions/020, 021, 022, 029, 031, 036). */
export interface Allowances {
  plan: string
  /** The plan's monthly price in USD; 0 is a Free plan (docs/decisions/038: Free workspaces leave a place to paying ones). */
  price: number
  teams: boolean
  seats: number
  monthlyRunLimit: number | null
  actionLimit: number | null
  monthlyModelCalls: number | null
  aiPlanning: boolean
  modelRepair: boolean
  suggestions: boolean
  advancedTemplates: boolean
  triggerUrls: boolean
  /** Outgoing webhook endpoints a workspace may keep; 0: not included (docs/decisions/026). */
  webhooks: number
  vaultSecrets: number | null
  /** Cloud runs of the workspace that run at the same time; more wait in the queue (docs/decisions/029). */
  cloudConcurrency: number
  /** Connected devices (extensions, local runners) the workspace may keep; null is unlimited (docs/decisions/031). */
  devices: number | null
  /** The shortest time between two runs of a schedule, in minutes; null is no minimum (docs/decisions/036). */
  scheduleMinMinutes: number | null
  /** The most data rows one run goes through; null is no limit (docs/decisions/046). */
  dataRowLimit: number | null
  /** How many days a run's files are kept after it ends; null: kept (docs/decisions/057). */
  runFilesDays: number | null
  /** How long a run that asks a person waits for one, in minutes; null: MAX_PERSON_WAIT_MINUTES (docs/decisions/059). */
  personWaitMinutes: number | null
  /** The member's own JavaScript in automations (docs/decisions/046). */
  scripts: boolean
}

/** The plan features a member may lack, as a refusal names them. */
export type PlanFeature = 'aiPlanning' | 'modelRepair' | 'suggestions' | 'teams' | 'advancedTemplates' | 'triggerUrls' | 'scripts'
export const PLAN_FEATURE_NAMES: Record<PlanFeature, string> = {
  teams: 'Team workspaces',
  aiPlanning: 'Planning with the AI model',
  modelRepair: 'Self-repair by the AI model',
  suggestions: 'Optimisation suggestions',
  advancedTemplates: 'Advanced workflow templates',
  triggerUrls: 'Trigger URLs',
  scripts: 'Running your own JavaScript',
}

const allowanceColumns = {
  plan: subscriptionPlans.name,
  price: subscriptionPlans.price,
  teams: subscriptionPlans.teams,
  seats: subscriptionPlans.seats,
  monthlyRunLimit: subscriptionPlans.monthlyRunLimit,
  actionLimit: subscriptionPlans.actionLimit,
  monthlyModelCalls: subscriptionPlans.monthlyModelCalls,
  aiPlanning: subscriptionPlans.aiPlanning,
  modelRepair: subscriptionPlans.modelRepair,
  suggestions: subscriptionPlans.suggestions,
  advancedTemplates: subscriptionPlans.advancedTemplates,
  triggerUrls: subscriptionPlans.triggerUrls,
  webhooks: subscriptionPlans.webhooks,
  vaultSecrets: subscriptionPlans.vaultSecrets,
  cloudConcurrency: subscriptionPlans.cloudConcurrency,
  devices: subscriptionPlans.devices,
  scheduleMinMinutes: subscriptionPlans.scheduleMinMinutes,
  dataRowLimit: subscriptionPlans.dataRowLimit,
  runFilesDays: subscriptionPlans.runFilesDays,
  personWaitMinutes: subscriptionPlans.personWaitMinutes,
  scripts: subscriptionPlans.scripts,
}

/** The plan every account falls back to; it cannot be deleted. */
const FREE_PLAN = 'free'

export function createPlanService(db: Db, audit: AuditService) {
  async function requirePlan(id: string): Promise<Plan> {
    // An id that is no UUID (a page's form sends what it is given) is as unknown as a missing one.
    if (!isUuid(id)) throw new NotFound('Plan not found')
    const [plan] = await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id))
    if (!plan) throw new NotFound('Plan not found')
    return plan
  }

  /** A second plan with the same price id would make webhooks ambiguous. */
  function priceIdTaken(error: unknown): never {
    if (isUniqueViolation(error)) throw new Conflict('Another plan already uses this payment provider price id.')
    throw error
  }

  /** The workspace's plan's allowances (read in the caller's transaction when one is given). */
  async function allowancesOf(workspaceId: string, tx: DbOrTx = db): Promise<Allowances> {
    const [row] = await tx
      .select(allowanceColumns)
      .from(workspaces)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
      .where(eq(workspaces.id, workspaceId))
    if (!row) throw new NotFound('Workspace not found')
    return row
  }

  /** The cheapest plan that meets the condition (the refusals name it), or null when none does. */
  async function cheapestWhere(condition: SQL | undefined, tx: DbOrTx = db) {
    const [plan] = await tx
      .select({
        name: subscriptionPlans.name,
        monthlyModelCalls: subscriptionPlans.monthlyModelCalls,
        scheduleMinMinutes: subscriptionPlans.scheduleMinMinutes,
      })
      .from(subscriptionPlans)
      .where(condition)
      .orderBy(asc(subscriptionPlans.price), asc(subscriptionPlans.sortOrder))
      .limit(1)
    return plan ?? null
  }

  return {
    allowancesOf,

    /**
     * The cheapest plan with more AI model calls a month than `than` (blank: no monthly limit) and
     * the feature that spends them, or null: what a refusal of a model call names.
     */
    cheapestWithMoreModelCalls(than: number, feature: Extract<PlanFeature, 'aiPlanning' | 'modelRepair'>, tx: DbOrTx = db) {
      return cheapestWhere(
        and(
          eq(subscriptionPlans[feature], true),
          or(isNull(subscriptionPlans.monthlyModelCalls), gt(subscriptionPlans.monthlyModelCalls, than)),
        ),
        tx,
      )
    },

    /** The cheapest plan whose vault holds more than `than` secrets (blank: no limit), or null: what a refusal names. */
    cheapestWithLargerVault(than: number, tx: DbOrTx = db) {
      return cheapestWhere(or(isNull(subscriptionPlans.vaultSecrets), gt(subscriptionPlans.vaultSecrets, than)), tx)
    },

    /** The cheapest plan that connects more than `than` devices (blank: no limit), or null: what a refusal names. */
    cheapestWithMoreDevices(than: number, tx: DbOrTx = db) {
      return cheapestWhere(or(isNull(subscriptionPlans.devices), gt(subscriptionPlans.devices, than)), tx)
    },

    /** The cheapest plan whose schedules may run every `minutes` (blank: no minimum), or null: what a refusal names. */
    cheapestAllowingSchedulesEvery(minutes: number, tx: DbOrTx = db) {
      return cheapestWhere(or(isNull(subscriptionPlans.scheduleMinMinutes), lte(subscriptionPlans.scheduleMinMinutes, minutes)), tx)
    },

    /**
     * The workspace's allowances if its plan includes the feature; otherwise a refusal that names
     * the cheapest plan that does ('… is part of the Pro plan; you are on Free.').
     */
    async requireFeature(workspaceId: string, feature: PlanFeature): Promise<Allowances> {
      const allowances = await allowancesOf(workspaceId)
      if (allowances[feature]) return allowances
      const unlocking = await cheapestWhere(eq(subscriptionPlans[feature], true))
      const what = PLAN_FEATURE_NAMES[feature]
      throw new LimitReached(
        unlocking
          ? `${what} is part of the ${unlocking.name} plan; you are on the ${allowances.plan} plan. Upgrade to use it.`
          : `${what} is not part of any plan at the moment.`,
        'PLAN_LIMIT',
      )
    },

    /** Every plan in the admin's order (Order in the Subscriptions tab), then by price and name. */
    async list(): Promise<Plan[]> {
      return db
        .select()
        .from(subscriptionPlans)
        .orderBy(asc(subscriptionPlans.sortOrder), asc(subscriptionPlans.price), asc(subscriptionPlans.name))
    },

    /** How many workspaces are on each plan (by slug). */
    async memberCounts(): Promise<Record<string, number>> {
      const rows = await db.select({ slug: workspaces.planSlug, n: count() }).from(workspaces).groupBy(workspaces.planSlug)
      return Object.fromEntries(rows.map((row) => [row.slug, row.n]))
    },

    async create(actor: Actor, input: PlanCreate): Promise<Plan> {
      const base = slugify(input.name, 40) || 'plan'
      return db
        .transaction(async (tx) => {
          const taken = await tx
            .select({ slug: subscriptionPlans.slug })
            .from(subscriptionPlans)
            .where(like(subscriptionPlans.slug, `${base}%`))
          // Without an order of its own, a new plan goes after every other.
          const [last] = await tx.select({ order: max(subscriptionPlans.sortOrder) }).from(subscriptionPlans)
          const [plan] = await tx
            .insert(subscriptionPlans)
            .values({
              ...input,
              paddlePriceId: input.paddlePriceId ?? null,
              slug: uniqueSlug(base, new Set(taken.map((row) => row.slug))),
              sortOrder: input.sortOrder ?? Math.min(MAX_PLAN_ORDER, (last?.order ?? -1) + 1),
            })
            .returning()
          if (!plan) throw new Error('plan insert returned nothing')
          await audit.record(tx, actor, {
            action: 'plan.create',
            targetType: 'plan',
            targetId: plan.id,
            summary: `Added the ${plan.name} plan`,
            after: { ...input },
          })
          return plan
        })
        .catch(priceIdTaken)
    },

    /** Saves the given fields of one plan (the editable table saves one field at a time). */
    async update(actor: Actor, id: string, changes: PlanUpdate): Promise<Plan> {
      const before = await requirePlan(id)
      return db
        .transaction(async (tx) => {
          const [plan] = await tx
            .update(subscriptionPlans)
            .set({ ...changes, updatedAt: new Date() })
            .where(eq(subscriptionPlans.id, id))
            .returning()
          if (!plan) throw new NotFound('Plan not found')
          // A whole form is saved at once: the audit names what it changed.
          const keys = (Object.keys(changes) as (keyof PlanUpdate)[]).filter(
            (key) => JSON.stringify(before[key]) !== JSON.stringify(plan[key]),
          )
          if (keys.length === 0) return plan
          await audit.record(tx, actor, {
            action: 'plan.update',
            targetType: 'plan',
            targetId: id,
            summary: `Changed the ${before.name} plan: ${keys.join(', ')}`,
            before: Object.fromEntries(keys.map((key) => [key, before[key]])),
            after: Object.fromEntries(keys.map((key) => [key, plan[key]])),
          })
          return plan
        })
        .catch(priceIdTaken)
    },

    /**
     * Refused for Free and for any plan members are on: they would be left on a plan that does not
     * exist. The foreign key on workspaces.plan_slug is the check, so a workspace assigned while
     * the delete runs is counted too.
     */
    async remove(actor: Actor, id: string): Promise<void> {
      if (!isUuid(id)) throw new NotFound('Plan not found')
      let plan: Plan | undefined
      await db
        .transaction(async (tx) => {
          ;[plan] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id)).for('update')
          if (!plan) throw new NotFound('Plan not found')
          if (plan.slug === FREE_PLAN) throw new Conflict('The Free plan cannot be deleted: every account falls back to it.')
          await tx.delete(subscriptionPlans).where(eq(subscriptionPlans.id, id))
          await audit.record(tx, actor, {
            action: 'plan.delete',
            targetType: 'plan',
            targetId: id,
            summary: `Deleted the ${plan.name} plan`,
            before: { ...plan },
          })
        })
        .catch(async (error: unknown) => {
          if (!plan || !isForeignKeyViolation(error)) throw error
          const [members] = await db.select({ n: count() }).from(workspaces).where(eq(workspaces.planSlug, plan.slug))
          throw membersOnPlan(plan.name, members?.n ?? 0)
        })
    },
  }
}

function membersOnPlan(name: string, n: number): Conflict {
  const who = n === 1 ? '1 member is' : n > 1 ? `${n} members are` : 'Members are'
  return new Conflict(`${who} on the ${name} plan: move them to another plan first.`)
}

export type PlanService = ReturnType<typeof createPlanService>
