import { ExternalLink } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

/** The form intent of the Billing page's action that opens the payment provider's customer portal. */
export const OPEN_PORTAL = 'open-portal'

/**
 * "Manage payment method and invoices": a form post to the Billing page (so it works before
 * hydration too), whose action asks the provider for a fresh portal link and redirects to it.
 */
export function PortalButton() {
  const opening = useNavigation().formData?.get('intent') === OPEN_PORTAL
  return (
    <Form method="post" action="/billing">
      <input type="hidden" name="intent" value={OPEN_PORTAL} />
      <Button type="submit" variant="outline" disabled={opening}>
        <ExternalLink aria-hidden="true" /> {opening ? 'Opening the portal...' : 'Manage payment method and invoices'}
      </Button>
    </Form>
  )
}
