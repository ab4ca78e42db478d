import { z } from '@hono/zod-openapi'
import { admin, signedInRoute } from '#server/http/access.ts'
import { createRouter } from '#server/http/openapi.ts'
import type { OverviewService } from './overview.service.ts'

const count = z.number().int()

const figures = {
  signUps: count,
  runsSucceeded: count,
  runsFailed: count,
  runsCancelled: count,
  creditsSpent: count.describe('Credits taken for runs and model calls'),
  creditsRefunded: count.describe('Credits given back for runs that failed on our side'),
  modelCalls: count,
  modelCredits: count.describe('Credits the model calls cost'),
  trialsStarted: count,
  trialsConverted: count,
  trialsExpired: count,
  cancellations: count.describe('Paid subscriptions that ended'),
  revenue: z.number().describe('Payments received, US dollars'),
}

const overviewSchema = z
  .object({
    asOf: z.string(),
    mrr: z.object({
      amount: z.number().describe('Monthly recurring revenue now, US dollars'),
      paying: count,
      change: z
        .object({ amount: z.number(), since: z.string().describe('The UTC day it is compared with') })
        .nullable()
        .describe('Null until the daily roll-up has noted the revenue of a day of the window'),
    }),
    subscriptionsByPlan: z.array(z.object({ plan: z.string(), name: z.string(), paying: count, trialing: count })),
    last30Days: z.object(figures),
    days: z
      .array(z.object({ day: z.string(), today: z.boolean(), ...figures }))
      .describe('The last 30 UTC days, oldest first; the last is today so far'),
    queue: z.object({
      depth: count.describe('Cloud runs waiting'),
      oldestWaitSeconds: count.nullable(),
      startedLastHour: count,
      averageWaitSeconds: count.nullable().describe('Of the cloud runs started in the last hour'),
    }),
    errors: z.object({
      since: z.string(),
      failedRuns: count,
      topRunErrors: z.array(z.object({ message: z.string(), count })),
      failedPayments: count,
      failedWebhookDeliveries: count,
      failedEmails: count,
    }),
  })
  .openapi('BusinessOverview')

const read = signedInRoute(admin('admin:read'), {
  method: 'get',
  path: '/',
  tags: ['Overview (admin)'],
  summary:
    'How the business is doing: monthly recurring revenue and its change, subscriptions by plan, the last 30 days (sign-ups, runs, credits, model calls, trials, cancellations, revenue), the cloud queue and the last 24 hours’ errors',
  responses: { 200: { description: 'The overview', content: { 'application/json': { schema: z.object({ data: overviewSchema }) } } } },
})

export function createOverviewApi(overview: OverviewService) {
  return createRouter().openapi(read, async (c) => c.json({ data: await overview.overview() }, 200))
}
