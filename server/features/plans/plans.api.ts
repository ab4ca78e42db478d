import { z } from '@hono/zod-openapi'
import { planCreateSchema, planUpdateSchema } from '#common/plans.ts'
import { admin, publicRoute, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody, ownedResourceParams } from '#server/http/openapi.ts'
import type { BillingService } from '#server/features/billing/billing.service.ts'
import type { Plan, PlanService } from './plan.service.ts'

const planSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    price: z.number().openapi({ description: 'USD per month; 0 is free' }),
    creditsPerMonth: z.number().int(),
    description: z.string(),
    features: z.array(z.string()),
    highlighted: z.boolean().openapi({ description: "Pricing's 'Most Popular' plan" }),
    sortOrder: z.number().int().openapi({ description: 'Where the plan stands in every list of plans: lower first, ties by price' }),
    priceId: z.string().nullable().openapi({ description: "The payment provider's price id that checkout opens (null: Free)" }),
  })
  .openapi('Plan')

const adminPlanSchema = planSchema
  .extend({
    paddlePriceId: z.string().nullable().openapi({ description: 'The price id as stored (blank: none)' }),
    forSale: z.boolean().openapi({ description: 'Whether members can buy it; a plan not for sale is not offered on pricing or billing' }),
    notForSale: z.string().nullable().openapi({ description: 'Why it cannot be bought (what the Subscriptions tab says), or null' }),
    monthlyRunLimit: z.number().int().nullable(),
    actionLimit: z.number().int().nullable(),
    monthlyModelCalls: z.number().int().nullable(),
    aiPlanning: z.boolean(),
    modelRepair: z.boolean(),
    suggestions: z.boolean(),
    teams: z.boolean(),
    seats: z.number().int(),
    advancedTemplates: z.boolean(),
    triggerUrls: z.boolean(),
    webhooks: z.number().int(),
    vaultSecrets: z.number().int().nullable(),
    cloudConcurrency: z.number().int(),
    devices: z.number().int().nullable(),
    scheduleMinMinutes: z.number().int().nullable(),
    dataRowLimit: z.number().int().nullable(),
    runFilesDays: z.number().int().nullable().openapi({ description: "Days a run's files are kept after it ends; null: kept" }),
    personWaitMinutes: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Minutes a run that asks a person waits for one; null: the longest, 1,440' }),
    scripts: z.boolean(),
  })
  .openapi('PlanWithAllowances')

type Sale = Pick<BillingService, 'saleOf' | 'priceIdOf'>

function toPlanDto(plan: Plan, sale: Sale): z.infer<typeof planSchema> {
  return {
    id: plan.id,
    slug: plan.slug,
    name: plan.name,
    price: plan.price,
    creditsPerMonth: plan.creditsPerMonth,
    description: plan.description,
    features: plan.features,
    highlighted: plan.highlighted,
    sortOrder: plan.sortOrder,
    priceId: plan.price === 0 ? null : sale.priceIdOf(plan),
  }
}

function toAdminPlanDto(plan: Plan, sale: Sale): z.infer<typeof adminPlanSchema> {
  const forSale = sale.saleOf(plan)
  const { monthlyRunLimit, actionLimit, monthlyModelCalls, aiPlanning, modelRepair, suggestions, teams, seats } = plan
  const { advancedTemplates, triggerUrls, webhooks, vaultSecrets, cloudConcurrency, devices, scheduleMinMinutes } = plan
  const { dataRowLimit, runFilesDays, personWaitMinutes, scripts } = plan
  return {
    ...toPlanDto(plan, sale),
    paddlePriceId: plan.paddlePriceId,
    forSale: forSale.forSale,
    notForSale: forSale.forSale ? null : forSale.reason,
    ...{ monthlyRunLimit, actionLimit, monthlyModelCalls, aiPlanning, modelRepair, suggestions, teams, seats },
    ...{ advancedTemplates, triggerUrls, webhooks, vaultSecrets, cloudConcurrency, devices, scheduleMinMinutes },
    ...{ dataRowLimit, runFilesDays, personWaitMinutes, scripts },
  }
}

const tags = ['Plans']
const adminTags = ['Plans (admin)']
const one = { 'application/json': { schema: z.object({ data: adminPlanSchema }) } }

const list = publicRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'The plans on sale, in the order pricing and the Billing page show them (Free included)',
  description: 'A paid plan without a price id the payment provider accepts cannot be bought and is not listed (GET /plans/all lists it).',
  responses: {
    200: { description: 'The plans', content: { 'application/json': { schema: z.object({ data: z.array(planSchema) }) } } },
  },
})

const listAll = signedInRoute(admin('admin:read'), {
  method: 'get',
  path: '/all',
  tags: adminTags,
  summary: 'Every plan in order, with what it includes and whether it is for sale (and if not, why)',
  responses: {
    200: { description: 'The plans', content: { 'application/json': { schema: z.object({ data: z.array(adminPlanSchema) }) } } },
  },
})

const create = signedInRoute(admin('never'), {
  method: 'post',
  path: '/',
  tags: adminTags,
  summary: 'Add a plan (name required; price and credits default to 0; without sortOrder it goes last); audited',
  request: { body: jsonBody(planCreateSchema) },
  responses: { 201: { description: 'The new plan', content: one }, ...errorResponses(400, 409) },
})

const update = signedInRoute(admin('never'), {
  method: 'patch',
  path: '/{id}',
  tags: adminTags,
  summary: 'Change the fields sent of one plan (its order: sortOrder); audited',
  request: { params: ownedResourceParams, body: jsonBody(planUpdateSchema.strict()) },
  responses: { 200: { description: 'The plan', content: one }, ...errorResponses(400, 404, 409) },
})

const remove = signedInRoute(admin('never'), {
  method: 'delete',
  path: '/{id}',
  tags: adminTags,
  summary: 'Delete a plan nobody is on (never Free); audited',
  request: { params: ownedResourceParams },
  responses: {
    200: { description: 'Deleted', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } },
    ...errorResponses(404, 409),
  },
})

/** /api/plans: the catalogue pricing reads, and the admin's Subscriptions tab as an API. */
export function createPlansApi(deps: { plans: PlanService; sale: Sale }) {
  const { plans, sale } = deps
  return createRouter()
    .openapi(list, async (c) => {
      const forSale = (await plans.list()).filter((plan) => sale.saleOf(plan).forSale)
      return c.json({ data: forSale.map((plan) => toPlanDto(plan, sale)) }, 200)
    })
    .openapi(listAll, async (c) => {
      return c.json({ data: (await plans.list()).map((plan) => toAdminPlanDto(plan, sale)) }, 200)
    })
    .openapi(create, async (c) => {
      const plan = await plans.create(c.get('member'), c.req.valid('json'))
      return c.json({ data: toAdminPlanDto(plan, sale) }, 201)
    })
    .openapi(update, async (c) => {
      const plan = await plans.update(c.get('member'), c.req.valid('param').id, c.req.valid('json'))
      return c.json({ data: toAdminPlanDto(plan, sale) }, 200)
    })
    .openapi(remove, async (c) => {
      await plans.remove(c.get('member'), c.req.valid('param').id)
      return c.json({ data: { success: true } }, 200)
    })
}
