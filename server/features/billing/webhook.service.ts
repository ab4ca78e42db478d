// Applies the payment provider's webhook events to subscriptions, payments, plans and credits.
// Just over 300 lines: each event is applied in one transaction whose ordering rules (stale events,
// duplicates, the plan before a payment) read best in one place.
import { and, desc, eq, inArray, lte, ne } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { payments, subscriptionPlans, subscriptions, webhookEvents, workspaces } from '#server/db/schema/index.ts'
import type { DbOrTx } from '#server/db/client.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import { PAYMENT_PROVIDER, paymentActivity, subscriptionActivity } from './billing-activity.ts'
import type { CreditService } from '#server/features/credits/credit.service.ts'
import type { Logger } from '#server/logger.ts'
import {
  moneyOf,
  paddleEventSchema,
  paddleSubscriptionSchema,
  paddleTransactionSchema,
  SUBSCRIPTION_EVENTS,
  type PaddleEvent,
  type PaddleSubscription,
  type PaddleTransaction,
  prorationRateOf,
} from './paddle-events.ts'
import type { Subscription } from './billing-provider.ts'
import { isCheckoutUserToken } from './checkout-token.ts'
import { creditGrantFor, type CreditGrant } from './plan-credits.ts'
import { verifyPaddleSignature } from './paddle-signature.ts'

export type WebhookResult =
  { status: 200; outcome: 'applied' | 'ignored' | 'duplicate'; detail?: string } | { status: 400 | 401 | 503; message: string }

type Outcome = { outcome: 'applied' } | { outcome: 'ignored'; detail: string }
const applied: Outcome = { outcome: 'applied' }
const ignored = (detail: string): Outcome => ({ outcome: 'ignored', detail })

/** Statuses in which the member has the subscription's plan. */
const SERVING_STATUSES = ['active', 'trialing', 'past_due']

/**
 * Paddle webhooks: the only way a member's plan changes, besides an admin. Each event is verified,
 * then applied in one transaction together with the record of its id, so an event delivered twice
 * (or replayed) is applied once, and a failure leaves nothing half-done.
 */
export function createWebhookService(deps: {
  db: Db
  credits: CreditService
  /** Where billing events are told to the workspace (its activity page) and the admin (the audit log). */
  activity: Pick<AuditService, 'record'>
  logger: Logger
  provider: 'paddle' | 'sandbox'
  /** The endpoint's secret key; null when payments are not configured. */
  secret: string | null
  /** Signs the user id in checkout's custom data (checkout-token.ts). */
  checkoutSecret: string
}) {
  const { db, credits, activity, logger, provider, secret, checkoutSecret } = deps

  /** The paying workspace: custom_data.user_id names it (a personal workspace has its member's id), signed by user_token. */
  async function signedWorkspace(tx: DbOrTx, customData: PaddleSubscription['custom_data']): Promise<string | null> {
    const workspaceId = customData?.user_id
    if (!workspaceId || !isCheckoutUserToken(checkoutSecret, workspaceId, customData.user_token)) return null
    const [row] = await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId))
    return row?.id ?? null
  }

  /** Plans are known by their price id only: custom data's plan name is the buyer's to change. */
  async function planFor(tx: DbOrTx, priceId: string | undefined) {
    if (!priceId) return null
    const [plan] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.paddlePriceId, priceId))
    return plan ?? null
  }

  /** The workspace's plan: the dearest plan among its subscriptions that serve, else Free. */
  async function syncWorkspacePlan(tx: DbOrTx, workspaceId: string) {
    const serving = await tx
      .select({ slug: subscriptionPlans.slug, price: subscriptionPlans.price })
      .from(subscriptions)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, subscriptions.planSlug))
      .where(and(eq(subscriptions.workspaceId, workspaceId), inArray(subscriptions.status, SERVING_STATUSES)))
    const best = serving.sort((a, b) => b.price - a.price)[0]
    await tx
      .update(workspaces)
      .set({ planSlug: best?.slug ?? 'free', updatedAt: new Date() })
      .where(eq(workspaces.id, workspaceId))
  }

  async function applySubscription(tx: DbOrTx, event: PaddleEvent, data: PaddleSubscription): Promise<Outcome> {
    const occurredAt = new Date(event.occurred_at)
    const lockRow = () => tx.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, data.id)).for('update')
    // Locked, so two events for one subscription apply one after the other, in occurred_at order.
    const [existing] = await lockRow()
    const workspaceId = existing?.workspaceId ?? (await signedWorkspace(tx, data.custom_data))
    if (!workspaceId) return ignored('no workspace of ours (custom_data.user_id with a valid user_token)')
    if (existing && occurredAt < existing.lastEventAt) return ignored('older than the last event applied to this subscription')
    const plan = await planFor(tx, data.items[0]?.price.id)
    if (!plan) return ignored(`no plan has the price id ${data.items[0]?.price.id}`)

    const values = {
      planSlug: plan.slug,
      status: data.status,
      providerCustomerId: data.customer_id ?? null,
      nextBilledAt: data.next_billed_at ? new Date(data.next_billed_at) : null,
      cancelAt: data.scheduled_change?.action === 'cancel' ? new Date(data.scheduled_change.effective_at) : null,
      canceledAt: data.canceled_at ? new Date(data.canceled_at) : null,
      updatePaymentUrl: data.management_urls?.update_payment_method ?? existing?.updatePaymentUrl ?? null,
      lastEventAt: occurredAt,
      updatedAt: new Date(),
    }
    let row = existing
    if (!row) {
      const [created] = await tx
        .insert(subscriptions)
        .values({ ...values, workspaceId, provider, providerSubscriptionId: data.id })
        .onConflictDoNothing()
        .returning()
      // Created meanwhile by a concurrent event: apply this one as an update, in order.
      if (!created) [row] = await lockRow()
    }
    if (row) {
      if (occurredAt < row.lastEventAt) return ignored('older than the last event applied to this subscription')
      await tx.update(subscriptions).set(values).where(eq(subscriptions.id, row.id))
    }
    await syncWorkspacePlan(tx, workspaceId)
    // A row that only kept a card (status 'incomplete') was no subscription yet.
    const change = subscriptionActivity(workspaceId, data.id, row?.status === 'incomplete' ? undefined : row, values, plan.name)
    if (change) await activity.record(tx, PAYMENT_PROVIDER, change)
    return applied
  }

  /**
   * The plan a change replaced: the item the transaction removes (a negative quantity), else the
   * plan paid for on this subscription before it, else the one its row names.
   */
  async function planBefore(tx: DbOrTx, data: PaddleTransaction, subscription: Subscription | undefined, before: Date) {
    const removed = await planFor(tx, data.items.find((item) => (item.quantity ?? 1) < 0)?.price.id)
    if (removed) return removed
    const [last] = data.subscription_id
      ? await tx
          .select({ slug: payments.planSlug })
          .from(payments)
          .where(
            and(
              eq(payments.providerSubscriptionId, data.subscription_id),
              eq(payments.status, 'success'),
              ne(payments.providerTransactionId, data.id),
              lte(payments.createdAt, before),
            ),
          )
          .orderBy(desc(payments.createdAt))
          .limit(1)
      : []
    const slug = last?.slug ?? subscription?.planSlug
    if (!slug) return null
    const [plan] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.slug, slug))
    return plan ?? null
  }

  /**
   * The card of a paid transaction, kept on its subscription's row. Paddle does not send
   * subscription.created before transaction.completed, so when the payment comes first the row
   * starts here: it serves no plan (status 'incomplete') and its lastEventAt is the epoch, so the
   * subscription's own events fill it in whenever they arrive.
   */
  async function keepCard(tx: DbOrTx, workspaceId: string, data: PaddleTransaction, planSlug: string | undefined) {
    const card = data.payments.find((payment) => payment.method_details?.card)?.method_details?.card
    if (!card || !data.subscription_id) return
    const cardValues = { cardBrand: card.type, cardLast4: card.last4, updatedAt: new Date() }
    if (!planSlug) {
      await tx.update(subscriptions).set(cardValues).where(eq(subscriptions.providerSubscriptionId, data.subscription_id))
      return
    }
    await tx
      .insert(subscriptions)
      .values({
        ...cardValues,
        workspaceId,
        provider,
        providerSubscriptionId: data.subscription_id,
        planSlug,
        status: 'incomplete',
        lastEventAt: new Date(0),
      })
      .onConflictDoUpdate({ target: subscriptions.providerSubscriptionId, set: cardValues })
  }

  /** Whether the member had a subscription other than this one (our rule: one free trial per account). */
  async function hadEarlierSubscription(tx: DbOrTx, workspaceId: string, subscriptionId: string | null | undefined) {
    const [other] = await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.workspaceId, workspaceId),
          subscriptionId ? ne(subscriptions.providerSubscriptionId, subscriptionId) : undefined,
        ),
      )
      .limit(1)
    return Boolean(other)
  }

  async function applyTransaction(tx: DbOrTx, event: PaddleEvent, data: PaddleTransaction): Promise<Outcome> {
    const [subscription] = data.subscription_id
      ? await tx.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, data.subscription_id))
      : []
    const workspaceId = subscription?.workspaceId ?? (await signedWorkspace(tx, data.custom_data))
    if (!workspaceId) return ignored('no workspace of ours (custom_data.user_id with a valid user_token)')
    // A prorated plan change also lists the item it replaces, with a negative quantity.
    const plan = await planFor(tx, data.items.find((item) => (item.quantity ?? 1) > 0)?.price.id)
    const status =
      event.event_type === 'transaction.completed' ? 'success' : event.event_type === 'transaction.payment_failed' ? 'failed' : 'pending'
    const createdAt = new Date(data.billed_at ?? data.created_at)

    const values = {
      workspaceId,
      providerSubscriptionId: data.subscription_id ?? null,
      planSlug: plan?.slug ?? null,
      ...moneyOf(data),
      currency: data.currency_code,
      status: status as 'success' | 'failed' | 'pending',
      updatedAt: new Date(),
    } as const
    // One statement, so transaction.billed and transaction.completed arriving together queue on the
    // row instead of both inserting. A row only moves forward: nothing replaces a success, and a
    // pending event does not hide a failure. No row back: an earlier event already went further.
    const [row] = await tx
      .insert(payments)
      .values({ ...values, providerTransactionId: data.id, createdAt })
      .onConflictDoUpdate({
        target: payments.providerTransactionId,
        set: values,
        setWhere: status === 'pending' ? eq(payments.status, 'pending') : ne(payments.status, 'success'),
      })
      .returning({ id: payments.id })
    if (!row) return ignored('the transaction is already recorded as paid (or as failed, for a pending event)')
    if (status !== 'pending') await activity.record(tx, PAYMENT_PROVIDER, paymentActivity(data, { ...values, status }, plan?.name))
    if (status !== 'success') return applied

    // Only the event that turned this row into a success gets here: credits once per transaction.
    await keepCard(tx, workspaceId, data, plan?.slug)
    const previous = data.origin === 'subscription_update' ? await planBefore(tx, data, subscription, createdAt) : null
    // A free first transaction is a trial's start; Paddle gives the price's trial to every checkout.
    const free = values.amount === 0 && values.creditApplied === 0
    const earlierSubscription = data.origin === 'web' && free ? await hadEarlierSubscription(tx, workspaceId, data.subscription_id) : false
    const rate = prorationRateOf(data)
    const grant = creditGrantFor({ origin: data.origin, transactionId: data.id, plan, previous, free, earlierSubscription, rate })
    if (grant) await applyGrant(tx, workspaceId, grant)
    return applied
  }

  /** A downgrade takes back its prorated credits, but no more than the balance holds (spent ones stay spent). */
  async function applyGrant(tx: DbOrTx, workspaceId: string, grant: CreditGrant) {
    let delta = grant.delta
    if (delta < 0) {
      const [row] = await tx.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update')
      delta = Math.max(delta, -(row?.credits ?? 0))
    }
    if (delta !== 0) await credits.applyIn(tx, { workspaceId, reason: 'plan_grant', delta, reference: grant.reference })
  }

  async function dispatch(tx: DbOrTx, event: PaddleEvent): Promise<Outcome | { invalid: string }> {
    if (SUBSCRIPTION_EVENTS.has(event.event_type)) {
      const parsed = paddleSubscriptionSchema.safeParse(event.data)
      if (!parsed.success) return { invalid: `malformed subscription: ${parsed.error.issues[0]?.path.join('.')}` }
      return applySubscription(tx, event, parsed.data)
    }
    if (['transaction.completed', 'transaction.payment_failed', 'transaction.billed', 'transaction.past_due'].includes(event.event_type)) {
      const parsed = paddleTransactionSchema.safeParse(event.data)
      if (!parsed.success) return { invalid: `malformed transaction: ${parsed.error.issues[0]?.path.join('.')}` }
      return applyTransaction(tx, event, parsed.data)
    }
    return ignored(`event type ${event.event_type} is not used`)
  }

  class InvalidEvent extends Error {}

  return {
    configured: secret !== null,

    /** Verifies and applies one delivery; never throws for bad input, answers with a status. */
    async receive(rawBody: string, signatureHeader: string | null | undefined): Promise<WebhookResult> {
      if (!secret) return { status: 503, message: 'Payment webhooks are not configured on this server.' }
      const check = verifyPaddleSignature(rawBody, signatureHeader, secret)
      if (!check.valid) {
        logger.warn({ reason: check.reason }, 'paddle webhook refused')
        return { status: 401, message: `Invalid webhook signature: ${check.reason}.` }
      }
      let json: unknown
      try {
        json = JSON.parse(rawBody)
      } catch {
        return { status: 400, message: 'The webhook body is not JSON.' }
      }
      const envelope = paddleEventSchema.safeParse(json)
      if (!envelope.success) return { status: 400, message: 'The webhook body is not a Paddle event.' }
      const event = envelope.data

      try {
        const result = await db.transaction(async (tx) => {
          const [claimed] = await tx
            .insert(webhookEvents)
            .values({ id: event.event_id, provider, eventType: event.event_type, outcome: 'applied' })
            .onConflictDoNothing()
            .returning({ id: webhookEvents.id })
          if (!claimed) return { outcome: 'duplicate' as const }
          const outcome = await dispatch(tx, event)
          // Thrown so the transaction rolls back: the event id stays unclaimed and nothing changed.
          if ('invalid' in outcome) throw new InvalidEvent(outcome.invalid)
          if (outcome.outcome === 'ignored') {
            await tx.update(webhookEvents).set({ outcome: 'ignored', detail: outcome.detail }).where(eq(webhookEvents.id, event.event_id))
          }
          return outcome
        })
        logger.info({ eventId: event.event_id, type: event.event_type, ...result }, 'paddle webhook')
        return { status: 200, ...result }
      } catch (error) {
        if (error instanceof InvalidEvent) return { status: 400, message: `The webhook event is malformed (${error.message}).` }
        throw error
      }
    },
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>
