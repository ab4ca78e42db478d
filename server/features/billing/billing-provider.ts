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
   * Moves the subscription to another price, charging or crediting the difference now; during a
   * trial nothing is billed (Paddle allows only do_not_bill then) and the new price applies from its end.
   */
  changePrice(subscription: Subscription, priceId: string): Promise<void>
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

  async function call(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<void> {
    let response: Response
    try {
      response = await send(`${baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${options.apiKey}`, 'Content-Type': 'application/json', 'Paddle-Version': '1' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      })
    } catch (error) {
      options.logger.error({ path, error: String(error) }, 'paddle api unreachable')
      throw new ServiceUnavailable('The payment provider could not be reached. Please try again in a few minutes.')
    }
    if (!response.ok) {
      const detail = (await response.json().catch(() => null)) as { error?: { detail?: string; code?: string } } | null
      options.logger.error({ path, status: response.status, error: detail?.error }, 'paddle api refused a request')
      throw new ServiceUnavailable(
        `The payment provider refused the change${detail?.error?.detail ? `: ${detail.error.detail}` : ''}. Please try again or contact support.`,
      )
    }
  }

  return {
    kind: 'paddle',
    cancelAtPeriodEnd: (subscription) =>
      call('POST', `/subscriptions/${encodeURIComponent(subscription.providerSubscriptionId)}/cancel`, {
        effective_from: 'next_billing_period',
      }),
    changePrice: (subscription, priceId) =>
      call('PATCH', `/subscriptions/${encodeURIComponent(subscription.providerSubscriptionId)}`, {
        items: [{ price_id: priceId, quantity: 1 }],
        proration_billing_mode: subscription.status === 'trialing' ? 'do_not_bill' : 'prorated_immediately',
      }),
  }
}
