import { randomBytes } from 'node:crypto'
import type { Db } from '#server/db/client.ts'
import type { Env } from '#server/env.ts'
import type { CreditService } from '#server/features/credits/credit.service.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import type { Logger } from '#server/logger.ts'
import { createBillingService, type CheckoutClient } from './billing.service.ts'
import { createPaddleApi, type BillingProvider } from './billing-provider.ts'
import { creditBalanceOf } from './credit-balance.ts'
import { createSandboxBilling } from './sandbox.ts'
import { createWebhookService } from './webhook.service.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'

export type BillingEnv = Pick<
  Env,
  | 'PADDLE_ENVIRONMENT'
  | 'PADDLE_CLIENT_TOKEN'
  | 'PADDLE_API_KEY'
  | 'PADDLE_WEBHOOK_SECRET'
  | 'PADDLE_API_URL'
  | 'BILLING_SANDBOX'
  | 'PORT'
  | 'HOST'
  | 'PUBLIC_URL'
>

/**
 * Payments from configuration: Paddle when a client token is set, the local sandbox when
 * BILLING_SANDBOX is on, otherwise none (the spec's 'Checkout Not Available').
 */
export function createBilling(deps: {
  db: Db
  env: Partial<BillingEnv>
  plans: PlanService
  credits: CreditService
  /** Billing events go to the workspace's activity (docs/decisions/021). */
  activity: Pick<AuditService, 'record'>
  logger: Logger
  /** Signs the user id that checkout carries to the webhook (the auth secret). */
  checkoutSecret: string
  deliverWebhook?: (request: Request) => Promise<Response>
}) {
  const { db, env, plans, credits, activity, logger, checkoutSecret } = deps
  const environment = env.PADDLE_ENVIRONMENT ?? 'sandbox'

  if (env.BILLING_SANDBOX) {
    // The sandbox signs its own events; without a configured secret, one per process will do.
    const secret = env.PADDLE_WEBHOOK_SECRET ?? randomBytes(32).toString('hex')
    const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST
    const origin = `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT ?? 3000}`
    const sandbox = createSandboxBilling({
      secret,
      webhookUrl: `${origin}/api/webhooks/paddle`,
      publicUrl: env.PUBLIC_URL ?? origin,
      deliver: deps.deliverWebhook ?? ((request) => fetch(request)),
      findPlan: async (query) => {
        const plan = (await plans.list()).find((candidate) =>
          'slug' in query ? candidate.slug === query.slug : candidate.paddlePriceId === query.priceId,
        )
        return plan?.paddlePriceId ? { slug: plan.slug, name: plan.name, price: plan.price, priceId: plan.paddlePriceId } : null
      },
      creditBalance: (workspaceId) => creditBalanceOf(db, workspaceId),
    })
    logger.warn('Payments: LOCAL SANDBOX (BILLING_SANDBOX=true): purchases complete without payment. Never use it in production.')
    return {
      billing: createBillingService({ db, plans, checkout: { kind: 'sandbox' }, provider: sandbox, checkoutSecret }),
      webhooks: createWebhookService({ db, credits, activity, logger, provider: 'sandbox', secret, checkoutSecret }),
    }
  }

  const checkout: CheckoutClient | null = env.PADDLE_CLIENT_TOKEN
    ? { kind: 'paddle', clientToken: env.PADDLE_CLIENT_TOKEN, environment }
    : null
  const provider: BillingProvider | null = env.PADDLE_API_KEY
    ? createPaddleApi({ apiKey: env.PADDLE_API_KEY, environment, baseUrl: env.PADDLE_API_URL, logger })
    : null
  if (checkout) logger.info({ environment }, 'Payments: Paddle Billing')
  else logger.info('Payments are off (PADDLE_CLIENT_TOKEN unset): plan buttons show "Checkout Not Available"')
  if (checkout && !provider) logger.warn('PADDLE_API_KEY is unset: members cannot switch plans or cancel from the Billing page')
  return {
    billing: createBillingService({ db, plans, checkout, provider, checkoutSecret }),
    webhooks: createWebhookService({
      db,
      credits,
      activity,
      logger,
      provider: 'paddle',
      secret: env.PADDLE_WEBHOOK_SECRET ?? null,
      checkoutSecret,
    }),
  }
}
