import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm'
import { hasInvoice } from '#common/billing-invoices.ts'
import { Conflict, NotFound, ServiceUnavailable } from '#common/errors.ts'
import { isUuid } from '#common/ids.ts'
import type { Db } from '#server/db/client.ts'
import { payments, subscriptions } from '#server/db/schema/index.ts'
import type { BillingProvider } from './billing-provider.ts'

type Payment = typeof payments.$inferSelect

/** Subscriptions the customer portal can manage: those that still serve a plan. */
const MANAGEABLE = ['active', 'trialing', 'past_due']

class NoBillingCustomer extends Conflict {
  constructor() {
    super('There is nothing to manage yet: the customer portal opens once you have had a paid plan.')
  }
}

/**
 * The members' billing portal (issue 33): the payment provider's customer portal (payment method,
 * invoices, the subscription) and each payment's invoice, for the workspace's own customer and
 * payments only. Pages and the API both come here.
 */
export function createBillingPortal(deps: { db: Db; provider: BillingProvider | null }) {
  const { db, provider } = deps

  /** The workspace's customer at the provider in use (its latest subscription's; with none in use, at any), or null. */
  async function customerOf(workspaceId: string): Promise<string | null> {
    const [row] = await db
      .select({ customer: subscriptions.providerCustomerId })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.workspaceId, workspaceId),
          provider ? eq(subscriptions.provider, provider.kind) : undefined,
          isNotNull(subscriptions.providerCustomerId),
        ),
      )
      .orderBy(desc(subscriptions.createdAt))
      .limit(1)
    return row?.customer ?? null
  }

  /** A payment of the workspace's; another workspace's is as unknown as a missing one. */
  async function paymentOf(workspaceId: string, where: { id: string } | { transactionId: string }): Promise<Payment | null> {
    if ('id' in where && !isUuid(where.id)) return null
    const [row] = await db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.workspaceId, workspaceId),
          'id' in where ? eq(payments.id, where.id) : eq(payments.providerTransactionId, where.transactionId),
        ),
      )
    return row ?? null
  }

  return {
    /** Whether invoices can be fetched at all (a payment provider we can ask is configured). */
    invoicesAvailable: provider !== null,

    /** Whether "Manage payment method and invoices" can open for the workspace: a provider, and a customer there. */
    async hasPortal(workspaceId: string): Promise<boolean> {
      return provider !== null && (await customerOf(workspaceId)) !== null
    },

    /** A fresh signed-in link to the provider's customer portal for the workspace's customer. */
    async portalUrl(workspaceId: string): Promise<string> {
      // What is the workspace's first (nothing to manage: 409), then whether the provider can be asked.
      const customer = await customerOf(workspaceId)
      if (!customer) throw new NoBillingCustomer()
      if (!provider) throw new ServiceUnavailable('The customer portal is not available right now: the payment provider is not configured.')
      const manageable = await db
        .select({ id: subscriptions.providerSubscriptionId })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.workspaceId, workspaceId),
            eq(subscriptions.providerCustomerId, customer),
            inArray(subscriptions.status, MANAGEABLE),
          ),
        )
      return provider.portalSession(
        customer,
        manageable.map((row) => row.id),
      )
    },

    /** A short-lived link to the invoice of one of the workspace's payments; 404 for anyone else's, or without an invoice. */
    async invoiceUrl(workspaceId: string, paymentId: string): Promise<string> {
      const payment = await paymentOf(workspaceId, { id: paymentId })
      if (!payment) throw new NotFound('There is no such payment.')
      if (!hasInvoice(payment)) throw new NotFound('This payment has no invoice: only completed payments of more than $0.00 have one.')
      if (!provider) throw new ServiceUnavailable('Invoices are not available right now: the payment provider is not configured.')
      return provider.invoiceUrl(payment.providerTransactionId)
    },

    /** The workspace's invoiced payment of a provider transaction (the sandbox's invoice page), or null. */
    async invoicedPayment(workspaceId: string, transactionId: string): Promise<Payment | null> {
      const payment = await paymentOf(workspaceId, { transactionId })
      return payment && hasInvoice(payment) ? payment : null
    },
  }
}
