import type { CheckoutClient } from '#server/features/billing/billing.service.ts'

type PaddleClient = Extract<CheckoutClient, { kind: 'paddle' }>

let onCompleted: () => void = () => {}

/**
 * Opens Paddle's overlay checkout. Paddle.js comes from Paddle's CDN, loaded only when a buyer
 * clicks (nothing of it is in any page's JavaScript). The plan changes when Paddle's webhook
 * reaches our server, not here.
 */
export async function openPaddleCheckout(options: {
  client: PaddleClient
  priceId: string
  email: string
  customData: { user_id: string; plan: string; user_token: string }
  onCompleted: () => void
}): Promise<void> {
  onCompleted = options.onCompleted
  const { initializePaddle } = await import('@paddle/paddle-js')
  const paddle = await initializePaddle({
    token: options.client.clientToken,
    environment: options.client.environment,
    eventCallback: (event) => {
      if (event.name === 'checkout.completed') onCompleted()
    },
  })
  if (!paddle) throw new Error('The payment window could not be loaded. Please check your connection and try again.')
  paddle.Checkout.open({
    items: [{ priceId: options.priceId, quantity: 1 }],
    customer: { email: options.email },
    customData: options.customData,
  })
}
