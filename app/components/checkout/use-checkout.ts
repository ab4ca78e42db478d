import { useNavigate } from 'react-router'
import { toast } from '#app/lib/toast.ts'
import type { CheckoutClient } from '#server/features/billing/billing.service.ts'

/** What a page's loader passes down so its plan buttons can open checkout. */
export interface CheckoutSetup {
  client: CheckoutClient | null
  /** The signed-in buyer; `token` is our server's signature of the id (see checkout-token.ts). */
  buyer: { id: string; email: string; token: string } | null
  /** Why this member may not buy yet (an unverified e-mail address: common/email-verification.ts), shown instead of checkout. */
  refusal: string | null
}

export interface CheckoutPlan {
  slug: string
  priceId: string | null
}

/**
 * A plan button's click handler. The checkout code loads on the first click, like Paddle.js: a
 * visitor reading the pricing never downloads it (docs/decisions/008-page-weight.md).
 */
export function useCheckout(setup: CheckoutSetup) {
  const navigate = useNavigate()
  return async (plan: CheckoutPlan) => {
    try {
      const { startCheckout } = await import('./start-checkout.ts')
      await startCheckout(setup, plan, navigate)
    } catch {
      toast.error('Checkout could not open', { description: 'Please check your connection and try again.' })
    }
  }
}
