import type { NavigateFunction } from 'react-router'
import { toast } from '#app/lib/toast.ts'
import type { CheckoutPlan, CheckoutSetup } from './use-checkout.ts'

const NOT_AVAILABLE = ['Checkout Not Available', 'Our payment system is currently being set up. Please try again later.'] as const

/**
 * Spec section 4: a paid plan opens the payment provider's checkout; on completion 'Purchase
 * Successful' and the dashboard. Without a provider or price id, the spec's notice instead.
 */
export async function startCheckout(setup: CheckoutSetup, plan: CheckoutPlan, navigate: NavigateFunction) {
  const { client, buyer, refusal } = setup
  if (refusal) return toast.error('Verify your e-mail address', { description: refusal })
  if (!buyer) return navigate('/auth')
  if (!client || !plan.priceId) return toast.error(NOT_AVAILABLE[0], { description: NOT_AVAILABLE[1] })
  if (client.kind === 'sandbox') return navigate(`/billing/checkout?plan=${encodeURIComponent(plan.slug)}`)
  try {
    const { openPaddleCheckout } = await import('#app/lib/paddle-checkout.ts')
    await openPaddleCheckout({
      client,
      priceId: plan.priceId,
      email: buyer.email,
      customData: { user_id: buyer.id, plan: plan.slug, user_token: buyer.token },
      onCompleted: () => {
        toast.success('Purchase Successful', { description: 'Thank you for your purchase! Your account will be upgraded shortly.' })
        void navigate('/dashboard')
      },
      onError: (detail) => {
        toast.error('Checkout could not open', {
          description: `${detail ?? 'Paddle refused the checkout.'} Please try again, or contact support if it keeps happening.`,
        })
      },
    })
  } catch (error) {
    toast.error(NOT_AVAILABLE[0], { description: error instanceof Error ? error.message : NOT_AVAILABLE[1] })
  }
}
