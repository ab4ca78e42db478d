import { emailVerificationRefusal } from '#common/email-verification.ts'
import type { CheckoutSetup } from '#app/components/checkout/use-checkout.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { AppLoadContext } from 'react-router'

/**
 * What a page's plan buttons need to open checkout for `workspaceId` (null: this member may not buy
 * for it, or nobody is signed in). The signed buyer is handed out only to a verified address; an
 * unverified one gets the refusal to show instead (issue 27, item 12).
 */
export function checkoutSetup(
  billing: AppLoadContext['services']['billing'],
  workspaceId: string | null,
  user: SessionUser | null,
): CheckoutSetup {
  const refused = user ? emailVerificationRefusal(user, { kind: 'purchase' }) : null
  return {
    client: billing.checkout,
    buyer: user && workspaceId && !refused ? { id: workspaceId, email: user.email, token: billing.checkoutToken(workspaceId, user) } : null,
    refusal: refused?.message ?? null,
  }
}
