import { and, desc, eq, inArray } from 'drizzle-orm'
import { requireVerifiedEmail, type VerifiablePerson } from '#common/email-verification.ts'
import { AppError, Conflict, NotFound, ServiceUnavailable } from '#common/errors.ts'
import type { Page } from '#common/pagination.ts'
import type { Db } from '#server/db/client.ts'
import { newestFirstPage } from '#server/db/newest-first-page.ts'
import { payments, subscriptions } from '#server/db/schema/index.ts'
import type { Plan, PlanService } from '#server/features/plans/plan.service.ts'
import type { BillingProvider, Subscription } from './billing-provider.ts'
import { createBillingPortal } from './billing-portal.ts'
import type { BillingPeriod } from '#common/proration.ts'
import { checkoutUserToken } from './checkout-token.ts'
import { creditBalanceOf } from './credit-balance.ts'
import type { SandboxBilling } from './sandbox.ts'
import { sandboxPeriodOf } from './sandbox-events.ts'
import { SANDBOX_CARDS, type SandboxCard } from '#common/sandbox-cards.ts'

export type Payment = typeof payments.$inferSelect

/** A member's subscription, with when its free trial ends (null when it is not in one). */
export type CurrentSubscription = Subscription & { trialEndsAt: Date | null }

/**
 * The subscription's current billing period, for the Billing page's estimate of a plan change; null
 * during a trial (a change is not billed then) or without an end. The sandbox's periods are its own
 * 30 days; Paddle's monthly ones start a calendar month before the next billing date (Paddle bills
 * from its own record of the period: this only estimates).
 */
export function billingPeriodOf(subscription: Subscription): BillingPeriod | null {
  const endsAt = subscription.nextBilledAt ?? subscription.cancelAt
  if (subscription.status === 'trialing' || !endsAt) return null
  if (subscription.provider === 'sandbox') return sandboxPeriodOf(subscription)
  const startsAt = new Date(endsAt)
  startsAt.setUTCMonth(startsAt.getUTCMonth() - 1)
  return { startsAt, endsAt }
}

/** A scheduled cancellation clears the next billing date: a trial then ends at cancelAt. */
function trialEndOf(subscription: Subscription): Date | null {
  return subscription.status === 'trialing' ? (subscription.nextBilledAt ?? subscription.cancelAt) : null
}

/** How the browser opens checkout: Paddle.js with the public client token, or our sandbox page. */
export type CheckoutClient = { kind: 'paddle'; clientToken: string; environment: 'sandbox' | 'production' } | { kind: 'sandbox' }

/** The spec's texts when checkout cannot open (no provider, or the plan has no price id). */
const CHECKOUT_NOT_AVAILABLE = {
  title: 'Checkout Not Available',
  description: 'Our payment system is currently being set up. Please try again later.',
} as const

class CheckoutNotAvailable extends ServiceUnavailable {
  constructor() {
    super(CHECKOUT_NOT_AVAILABLE.description)
  }
}

/** Paddle's price ids look like `pri_01h…`; the seed's placeholders (`pro-monthly-plan`) do not. */
const PADDLE_PRICE_ID = /^pri_[a-z0-9]+$/i

/**
 * Whether a plan can be bought, and if not why (what the admin's Subscriptions tab says). A plan
 * that cannot be bought is not offered: pricing and the Billing page list it only to a member
 * already on it (docs/decisions/041-prorated-plan-changes.md).
 */
export type PlanSale = { forSale: true } | { forSale: false; reason: string }

class PlanNotForSale extends AppError {
  constructor(name: string) {
    super(409, `The ${name} plan is not for sale at the moment. Please choose another plan.`, 'PLAN_NOT_FOR_SALE')
  }
}

/** Statuses in which a subscription gives its plan, newest first when a member has several. */
const SERVING = ['active', 'trialing', 'past_due']

/** The free trial of a member's first paid subscription (spec section 9; docs/decisions/010-payments.md). */
const TRIAL_DAYS = 14
const DAY_MS = 24 * 60 * 60 * 1000

export interface SandboxTrial {
  days: number
  /** When the trial ends and the first month is charged. */
  endsAt: Date
}

export function createBillingService(deps: {
  db: Db
  plans: PlanService
  checkout: CheckoutClient | null
  /** Paddle's API, or the local sandbox (which also offers its own purchase and end-of-period). */
  provider: BillingProvider | SandboxBilling | null
  checkoutSecret: string
}) {
  const { db, plans, checkout, provider, checkoutSecret } = deps
  const sandbox = provider && 'purchase' in provider ? provider : null
  const realPaddle = checkout?.kind === 'paddle' || provider?.kind === 'paddle'

  /**
   * The price id checkout and plan changes may use, or null. With real Paddle a placeholder id
   * would open a broken checkout, so such a plan counts as having none: 'Checkout Not Available'.
   */
  function priceIdOf(plan: Pick<Plan, 'paddlePriceId'>): string | null {
    if (!plan.paddlePriceId) return null
    return realPaddle && !PADDLE_PRICE_ID.test(plan.paddlePriceId) ? null : plan.paddlePriceId
  }

  /**
   * Free needs no price. A paid plan is for sale with a price id checkout may use: with Paddle one
   * of Paddle's (`pri_…`); with the sandbox, or with payments off, any (the sandbox plays Paddle
   * and knows a plan by its price id, whatever it looks like; without payments checkout answers
   * 'Checkout Not Available' for every plan alike).
   */
  function saleOf(plan: Pick<Plan, 'price' | 'paddlePriceId'>): PlanSale {
    if (plan.price === 0 || priceIdOf(plan)) return { forSale: true }
    if (!plan.paddlePriceId) return { forSale: false, reason: 'Not for sale: add its Paddle price id.' }
    return { forSale: false, reason: 'Not for sale: a Paddle price id starts with pri_ (this one is a placeholder).' }
  }

  /** The price id to buy or switch to `plan` with; refused when the plan is not for sale. */
  function requireForSale(plan: Plan): string {
    const priceId = priceIdOf(plan)
    if (!priceId) throw new PlanNotForSale(plan.name)
    return priceId
  }

  async function currentSubscription(workspaceId: string): Promise<CurrentSubscription | null> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.workspaceId, workspaceId), inArray(subscriptions.status, SERVING)))
      .orderBy(desc(subscriptions.updatedAt))
      .limit(1)
    return row ? { ...row, trialEndsAt: trialEndOf(row) } : null
  }

  async function requirePlan(slug: string): Promise<Plan> {
    const plan = (await plans.list()).find((candidate) => candidate.slug === slug)
    if (!plan) throw new NotFound(`There is no plan called ${slug}.`)
    return plan
  }

  /**
   * The trial a sandbox checkout gives, or null. One trial per account: only a member who never had
   * a subscription (whatever became of it) gets one. With real Paddle the trial is the price's own
   * (its trial_period, set by the operator), so Paddle, not this rule, decides.
   */
  async function sandboxTrialFor(workspaceId: string, from = new Date()): Promise<SandboxTrial | null> {
    const [earlier] = await db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.workspaceId, workspaceId))
      .limit(1)
    return earlier ? null : { days: TRIAL_DAYS, endsAt: new Date(from.getTime() + TRIAL_DAYS * DAY_MS) }
  }

  /** The payment provider's customer of the workspace's latest subscription: a returning buyer is the same customer. */
  async function customerOf(workspaceId: string): Promise<string | null> {
    const [row] = await db
      .select({ customer: subscriptions.providerCustomerId })
      .from(subscriptions)
      .where(eq(subscriptions.workspaceId, workspaceId))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1)
    return row?.customer ?? null
  }

  function requireProvider(): BillingProvider {
    if (!provider) throw new ServiceUnavailable('Plan changes are not available right now: the payment provider is not configured.')
    return provider
  }

  return {
    ...createBillingPortal({ db, provider }),
    checkout,
    canCheckOut: (plan: Pick<Plan, 'paddlePriceId'>) => Boolean(checkout && priceIdOf(plan)),
    /** What a page may hand to checkout as the plan's price id (null: the plan is not for sale). */
    priceIdOf,
    saleOf,
    billingPeriodOf,
    /** The workspace's credit balance at the payment provider (credit-balance.ts), in dollars. */
    creditBalance: (workspaceId: string) => creditBalanceOf(db, workspaceId),
    /**
     * The signature of a buyer's user id, which checkout's custom data must carry (checkout-token.ts):
     * without it no checkout can attach a subscription, so it is handed to a verified address only.
     */
    checkoutToken(workspaceId: string, buyer: VerifiablePerson): string {
      requireVerifiedEmail(buyer, { kind: 'purchase' })
      return checkoutUserToken(checkoutSecret, workspaceId)
    },
    currentSubscription,
    sandboxTrialFor,

    async recentPayments(workspaceId: string, limit = 5): Promise<Payment[]> {
      return db.select().from(payments).where(eq(payments.workspaceId, workspaceId)).orderBy(desc(payments.createdAt)).limit(limit)
    },

    async payments(workspaceId: string, query: { page: number; limit: number }): Promise<Page<Payment>> {
      return newestFirstPage(db, payments, eq(payments.workspaceId, workspaceId), query)
    },

    /**
     * What buying `planSlug` takes: the checkout to open. Throws when checkout cannot open. The
     * buyer is a workspace (its id; a personal workspace has its member's) and the e-mail paying.
     */
    async checkoutFor(user: { id: string } & VerifiablePerson, planSlug: string) {
      requireVerifiedEmail(user, { kind: 'purchase' })
      const plan = await requirePlan(planSlug)
      if (plan.price === 0) throw new Conflict('The Free plan needs no checkout.')
      if (await currentSubscription(user.id)) throw new Conflict('You already have a subscription: change plans on the Billing page.')
      if (!checkout) throw new CheckoutNotAvailable()
      const priceId = requireForSale(plan)
      const customData = { user_id: user.id, plan: plan.slug, user_token: checkoutUserToken(checkoutSecret, user.id) }
      return { checkout, plan, priceId, email: user.email, customData }
    },

    /** The local sandbox's checkout: pays (or declines) through signed webhooks to our own endpoint. */
    async sandboxPurchase(user: { id: string } & VerifiablePerson, planSlug: string, card: 'success' | 'declined') {
      if (!sandbox) throw new NotFound('The payment sandbox is off.')
      const { plan, priceId, customData } = await this.checkoutFor(user, planSlug)
      const trial = await sandboxTrialFor(user.id)
      return sandbox.purchase({
        customData,
        plan: { slug: plan.slug, name: plan.name, price: plan.price, priceId },
        card,
        trialDays: trial?.days ?? 0,
        customerId: await customerOf(user.id),
      })
    },

    /**
     * Switching to Free: the subscription ends with its paid period, or with its trial, uncharged.
     * Returns when it ends, and whether that is a trial's end.
     */
    async cancelToFree(workspaceId: string): Promise<{ endsAt: Date | null; trial: boolean }> {
      const subscription = await currentSubscription(workspaceId)
      if (!subscription) throw new Conflict('You are already on the Free plan.')
      const trial = subscription.status === 'trialing'
      if (subscription.cancelAt) return { endsAt: subscription.cancelAt, trial }
      await requireProvider().cancelAtPeriodEnd(subscription)
      return { endsAt: subscription.nextBilledAt, trial }
    },

    /**
     * The workspaces' subscriptions that still run (or are scheduled to end), ended now at the
     * provider: their account is being erased (docs/decisions/065). How many were ended. Throws
     * when the provider cannot be reached or refuses, so the erasure waits and tries again.
     */
    async cancelAllNow(workspaceIds: string[]): Promise<number> {
      if (!workspaceIds.length) return 0
      const live = await db
        .select()
        .from(subscriptions)
        .where(and(inArray(subscriptions.workspaceId, workspaceIds), inArray(subscriptions.status, [...SERVING, 'paused'])))
      if (live.length && !provider) {
        throw new ServiceUnavailable('Its subscriptions cannot be cancelled right now: the payment provider is not configured.')
      }
      for (const subscription of live) await requireProvider().cancelNow(subscription)
      return live.length
    },

    /** Upgrade or downgrade between paid plans while subscribed, by `by` (whose address must be verified). */
    async changePlan(workspaceId: string, planSlug: string, by: VerifiablePerson): Promise<void> {
      requireVerifiedEmail(by, { kind: 'purchase' })
      const plan = await requirePlan(planSlug)
      const subscription = await currentSubscription(workspaceId)
      if (!subscription) throw new Conflict('Choose a paid plan through checkout first.')
      if (subscription.planSlug === plan.slug) throw new Conflict(`You are already on the ${plan.name} plan.`)
      if (plan.price === 0) throw new Conflict('Use Switch to Free to end your subscription.')
      await requireProvider().changePrice(subscription, requireForSale(plan))
    },

    /** Sandbox only: lets the current period (or trial) end now: a renewal, the trial's first charge, or the scheduled cancellation. */
    async sandboxEndPeriod(workspaceId: string) {
      if (!sandbox) throw new NotFound('The payment sandbox is off.')
      const subscription = await currentSubscription(workspaceId)
      if (!subscription) throw new Conflict('There is no subscription to renew or end.')
      return sandbox.endPeriod(subscription)
    },

    /** Sandbox only: its customer portal's payment method update, to one of its test cards. */
    async sandboxUpdatePaymentMethod(workspaceId: string, card: SandboxCard) {
      if (!sandbox) throw new NotFound('The payment sandbox is off.')
      const subscription = await currentSubscription(workspaceId)
      if (!subscription) throw new Conflict('There is no subscription to pay for: the payment method is kept with a subscription.')
      const { brand, last4 } = SANDBOX_CARDS[card]
      await sandbox.updatePaymentMethod(subscription, { type: brand, last4 })
    },
  }
}

export type BillingService = ReturnType<typeof createBillingService>
