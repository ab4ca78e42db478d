import type { Paddle, PaddleEventData } from '@paddle/paddle-js'
import type { CheckoutClient } from '#server/features/billing/billing.service.ts'

type PaddleClient = Extract<CheckoutClient, { kind: 'paddle' }>

interface CheckoutHandlers {
  onCompleted: () => void
  /** Paddle could not open the checkout; `detail` is Paddle's reason, when it gave one. */
  onError: (detail: string | null) => void
}

// Each click initialises Paddle.js again (an update after the first), so one callback serves
// every checkout and reads the handlers of the one opened last.
let current: CheckoutHandlers & { paddle?: Paddle } = { onCompleted: () => {}, onError: () => {} }

function onPaddleEvent(event: PaddleEventData) {
  if (event.name === 'checkout.completed') {
    // Our own toast and page follow; Paddle's success screen would sit on top of them.
    current.paddle?.Checkout.close()
    current.onCompleted()
  } else if (event.name === 'checkout.error') {
    current.onError(event.detail ?? null)
  }
}

/**
 * Opens Paddle's overlay checkout. Paddle.js comes from Paddle's CDN, loaded only when a buyer
 * clicks (nothing of it is in any page's JavaScript). The plan changes when Paddle's webhook
 * reaches our server, not here.
 */
export async function openPaddleCheckout(
  options: CheckoutHandlers & {
    client: PaddleClient
    priceId: string
    email: string
    customData: { user_id: string; plan: string; user_token: string }
  },
): Promise<void> {
  current = { onCompleted: options.onCompleted, onError: options.onError }
  const { initializePaddle } = await import('@paddle/paddle-js')
  const paddle = await initializePaddle({
    token: options.client.clientToken,
    environment: options.client.environment,
    eventCallback: onPaddleEvent,
  })
  if (!paddle) throw new Error('The payment window could not be loaded. Please check your connection and try again.')
  current.paddle = paddle
  paddle.Checkout.open({
    items: [{ priceId: options.priceId, quantity: 1 }],
    customer: { email: options.email },
    customData: options.customData,
  })
}
