import { pageCaller } from '#app/lib/guards.server.ts'
import { format } from 'date-fns'
import type { AppLoadContext } from 'react-router'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { BillingService, Payment } from '#server/features/billing/billing.service.ts'
import type { Caller } from '#common/auth.ts'
import { checkoutSetup } from './checkout-setup.server.ts'
import type { Plan } from '#server/features/plans/plan.service.ts'
import { prorate, prorationRate, type BillingPeriod } from '#common/proration.ts'
import { hasInvoice, invoicePath } from '#common/billing-invoices.ts'
import type { SubscriptionView } from './billing-summary.tsx'
import type { PaymentRow } from './payment-table.tsx'

// Formatted on the server, so the HTML and the browser's render agree (dates and money).

export const formatDate = (date: Date) => format(date, 'MMM d, yyyy')

export function formatMoney(amount: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount)
}

/** `invoices`: whether the rows link their invoices (a provider is configured and the member manages billing). */
export function paymentRows(payments: Payment[], plans: Pick<Plan, 'slug' | 'name'>[], invoices: boolean): PaymentRow[] {
  return payments.map((payment) => ({
    id: payment.id,
    date: payment.createdAt.toISOString(),
    dateLabel: formatDate(payment.createdAt),
    amountLabel: formatMoney(payment.amount, payment.currency),
    planName: plans.find((plan) => plan.slug === payment.planSlug)?.name ?? null,
    // A prorated downgrade charges nothing and credits the balance; later payments spend that balance first.
    note:
      payment.creditToBalance > 0
        ? `${formatMoney(payment.creditToBalance, payment.currency)} credited to your balance`
        : payment.creditApplied > 0
          ? `${formatMoney(payment.creditApplied, payment.currency)} paid from your balance`
          : null,
    status: payment.status,
    invoiceHref: invoices && hasInvoice(payment) ? invoicePath(payment.id) : null,
  }))
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * What the plan-change dialog says a move from `current` to `plan` does now, by Paddle's rule
 * (common/proration.ts): an estimate at the page's load, for the provider bills at the click. Null
 * when nothing is billed (a trial) or the period is not known.
 */
export function changeEstimate(
  current: Pick<Plan, 'price' | 'creditsPerMonth'> | undefined,
  plan: Pick<Plan, 'price' | 'creditsPerMonth'>,
  period: BillingPeriod | null,
  now = new Date(),
): string | null {
  if (!current || !period || plan.price === 0) return null
  const rate = prorationRate(period, now)
  const money = prorate(Math.round(current.price * 100), Math.round(plan.price * 100), rate).difference
  const credits = prorate(current.creditsPerMonth, plan.creditsPerMonth, rate).difference
  const days = Math.max(0, Math.ceil((period.endsAt.getTime() - now.getTime()) / DAY_MS))
  const left = `the ${days} day${days === 1 ? '' : 's'} left of this billing period`
  const billed =
    money > 0
      ? `About ${formatMoney(money / 100)} is charged today for ${left}.`
      : money < 0
        ? `About ${formatMoney(-money / 100)} is credited to your balance today for ${left}; it pays your next payments first.`
        : 'Nothing is charged today.'
  const granted =
    credits > 0
      ? ` Your credits go up by about ${credits}.`
      : credits < 0
        ? ` Your credits go down by about ${-credits} (never below zero).`
        : ''
  return billed + granted
}

const RECENT_PAYMENTS = 5

/** Invoices are for those who manage the workspace's billing (its owners), once a provider can send them. */
export const invoicesFor = (billing: Pick<BillingService, 'invoicesAvailable'>, caller: Pick<Caller, 'workspace'>) =>
  billing.invoicesAvailable && caller.workspace.role === 'owner'

/** What /billing shows: the member's plan and credits, their subscription, the plans and the latest payments. */
export async function loadBilling(context: AppLoadContext, user: SessionUser) {
  const { billing, plans: planService } = context.services
  const caller = pageCaller(user)
  const workspace = caller.workspace.id
  const read = await readForPage(
    context,
    () =>
      Promise.all([
        planService.list(),
        billing.currentSubscription(workspace),
        billing.recentPayments(workspace, RECENT_PAYMENTS),
        billing.payments(workspace, { page: 1, limit: 1 }),
        billing.creditBalance(workspace),
        caller.workspace.role === 'owner' ? billing.hasPortal(workspace) : false,
      ]),
    'Your billing details could not be loaded. Please try again in a moment.',
  )
  const [plans, subscription, recent, history, balance, portal] = read.ok ? read.value : [[], null, [], { total: 0 }, 0, false]
  const planName = (slug: string) => plans.find((plan) => plan.slug === slug)?.name ?? slug.charAt(0).toUpperCase() + slug.slice(1)
  const subscribedPlan = subscription ? plans.find((plan) => plan.slug === subscription.planSlug) : undefined
  const view: SubscriptionView | null = subscription
    ? {
        planName: planName(subscription.planSlug),
        status: subscription.status,
        trial:
          subscription.trialEndsAt && subscribedPlan
            ? { endsLabel: formatDate(subscription.trialEndsAt), priceLabel: formatMoney(subscribedPlan.price) }
            : null,
        nextRenewalLabel: subscription.nextBilledAt ? formatDate(subscription.nextBilledAt) : null,
        cancelAtLabel: subscription.cancelAt ? formatDate(subscription.cancelAt) : null,
        endsLabel: subscription.nextBilledAt ? formatDate(subscription.nextBilledAt) : null,
        card: subscription.cardBrand && subscription.cardLast4 ? { brand: subscription.cardBrand, last4: subscription.cardLast4 } : null,
        updatePaymentUrl: subscription.updatePaymentUrl,
      }
    : null
  const planSlug = user.workspace?.planSlug ?? user.profile.subscriptionPlan
  const currentPlan = plans.find((plan) => plan.slug === planSlug)
  const period = subscription ? billing.billingPeriodOf(subscription) : null
  return {
    error: read.ok ? null : read.message,
    planSlug,
    planName: planName(user.workspace?.planSlug ?? user.profile.subscriptionPlan),
    credits: user.workspace?.credits ?? user.profile.credits,
    /** The workspace the page is about, and whether this member may change its billing (owners only). */
    workspaceName: user.workspace?.kind === 'team' ? user.workspace.name : null,
    canManage: caller.workspace.role === 'owner',
    subscription: view,
    /** What the provider holds for the workspace from prorated downgrades, spent on its next payments. */
    creditBalanceLabel: balance > 0 ? formatMoney(balance) : null,
    // A plan that cannot be bought is not offered; the member's own plan is always shown (docs/decisions/041).
    plans: plans
      .filter((plan) => plan.slug === planSlug || billing.saleOf(plan).forSale)
      .map((plan) => ({
        slug: plan.slug,
        name: plan.name,
        price: plan.price,
        priceLabel: plan.price === 0 ? 'Free' : formatMoney(plan.price),
        features: plan.features,
        priceId: billing.priceIdOf(plan),
        changeEstimate: plan.slug === planSlug ? null : changeEstimate(currentPlan, plan, period),
      })),
    payments: paymentRows(recent, plans, invoicesFor(billing, caller)),
    /** Whether "Manage payment method and invoices" opens the provider's customer portal (an owner with a customer there). */
    portal,
    paymentCount: history.total,
    // The buyer is the workspace (a personal workspace has its member's id): checkout's custom data carries it, signed.
    // Only owners get the signed buyer: with it, a checkout would attach a subscription to the workspace.
    checkout: checkoutSetup(billing, caller.workspace.role === 'owner' ? workspace : null, user),
    sandbox: billing.checkout?.kind === 'sandbox',
  }
}
