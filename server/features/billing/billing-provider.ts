import { ServiceUnavailable } from '#common/errors.ts'
import type { subscriptions } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'

export type Subscription = typeof subscriptions.$inferSelect

/** What our server asks of the payment provider; the answers come back as webhooks. */
export interface BillingProvider {
  kind: 'paddle' | 'sandbox'
  /** Schedules the cancellation for the end of the paid period (the plan stays until then). */
  cancelAtPeriodEnd(subscription: Subscription): Promise<void>
  /**
   * Ends the subscription now, with nothing more charged: its account is being erased
   * (docs/decisions/065), so nobody is left to use the rest of the period.
   */
  cancelNow(subscription: Subscription): Promise<void>
  /**
   * Moves the subscription to another price, charging or crediting the difference now; during a
   * trial nothing is billed (Paddle allows only do_not_bill then) and the new price applies from its end.
   */
  changePrice(subscription: Subscription, priceId: string): Promise<void>
  /**
   * A link that signs the customer in to the provider's customer portal (payment method, invoices,
   * the subscriptions named): short-lived, made anew for each visit and never stored.
   */
  portalSession(customerId: string, subscriptionIds: string[]): Promise<string>
  /** A short-lived link to the invoice of a completed transaction that had a value (common/billing-invoices.ts). */
  invoiceUrl(transactionId: string): Promise<string>
}

/** The parts of Paddle's answers that hold links: a portal session's overview, an invoice's url. */
interface PaddleLinks {
  urls?: { general?: { overview?: unknown } }
  url?: unknown
}

const PADDLE_API = { sandbox: 'https://sandbox-api.paddle.com', production: 'https://api.paddle.com' } as const

/** Paddle Billing's REST API (developer.paddle.com/api-reference), over fetch with the API key. */
export function createPaddleApi(options: {
  apiKey: string
  environment: 'sandbox' | 'production'
  baseUrl?: string
  logger: Logger
  fetch?: typeof fetch
}): BillingProvider {
  const baseUrl = (options.baseUrl ?? PADDLE_API[options.environment]).replace(/\/+$/, '')
  const send = options.fetch ?? fetch

  /** One request; `refused` says what the provider refused, in the member's words. Returns the answer's JSON. */
  async function call(method: 'GET' | 'POST' | 'PATCH', path: string, body: unknown, refused: string): Promise<unknown> {
    let response: Response
    try {
      response = await send(`${baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${options.apiKey}`,
          'Paddle-Version': '1',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      })
    } catch (error) {
      options.logger.error({ path, error: String(error) }, 'paddle api unreachable')
      throw new ServiceUnavailable('The payment provider could not be reached. Please try again in a few minutes.')
    }
    if (!response.ok) {
      const detail = (await response.json().catch(() => null)) as { error?: { detail?: string; code?: string } } | null
      options.logger.error({ path, status: response.status, error: detail?.error }, 'paddle api refused a request')
      // Paddle's detail is a sentence of its own: its full stop would double ours.
      const said = detail?.error?.detail?.replace(/\.+$/, '')
      throw new ServiceUnavailable(
        `The payment provider refused ${refused}${said ? `: ${said}` : ''}. Please try again or contact support.`,
      )
    }
    return response.json().catch(() => null)
  }

  /** The https link an answer holds where `pick` looks; anything else is the provider's fault, told as such. */
  function linkIn(answer: unknown, pick: (data: PaddleLinks) => unknown, path: string): string {
    const link = pick((answer as { data?: PaddleLinks } | null)?.data ?? {})
    if (typeof link === 'string' && URL.canParse(link) && new URL(link).protocol === 'https:') return link
    options.logger.error({ path }, 'paddle api answered without a usable link')
    throw new ServiceUnavailable('The payment provider sent no usable link. Please try again in a few minutes.')
  }

  return {
    kind: 'paddle',
    cancelAtPeriodEnd: (subscription) =>
      call(
        'POST',
        `/subscriptions/${encodeURIComponent(subscription.providerSubscriptionId)}/cancel`,
        { effective_from: 'next_billing_period' },
        'the change',
      ).then(() => undefined),
    cancelNow: (subscription) =>
      call(
        'POST',
        `/subscriptions/${encodeURIComponent(subscription.providerSubscriptionId)}/cancel`,
        { effective_from: 'immediately' },
        'the cancellation',
      ).then(() => undefined),
    changePrice: (subscription, priceId) =>
      call(
        'PATCH',
        `/subscriptions/${encodeURIComponent(subscription.providerSubscriptionId)}`,
        {
          items: [{ price_id: priceId, quantity: 1 }],
          proration_billing_mode: subscription.status === 'trialing' ? 'do_not_bill' : 'prorated_immediately',
        },
        'the change',
      ).then(() => undefined),
    // developer.paddle.com/api-reference/customer-portals/create-customer-portal-session
    async portalSession(customerId, subscriptionIds) {
      const path = `/customers/${encodeURIComponent(customerId)}/portal-sessions`
      const answer = await call('POST', path, { subscription_ids: subscriptionIds }, 'to open the customer portal')
      return linkIn(answer, (data) => data.urls?.general?.overview, path)
    },
    // developer.paddle.com/api-reference/transactions/get-transaction-invoice: the link lasts an hour.
    async invoiceUrl(transactionId) {
      const path = `/transactions/${encodeURIComponent(transactionId)}/invoice?disposition=inline`
      return linkIn(await call('GET', path, undefined, 'to send the invoice'), (data) => data.url, path)
    },
  }
}
