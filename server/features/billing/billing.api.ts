import { z } from '@hono/zod-openapi'
import { isUuid, NIL_UUID } from '#common/ids.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses } from '#server/http/openapi.ts'
import type { BillingService } from './billing.service.ts'

const tags = ['Billing']
// Billing is the workspace owner's (as on the Billing page); a key or device never reaches it: a
// portal link can change the card and cancel the subscription.
const OWNER = member('never', 'owner')
/** The links sign their holder in (a portal) or open a private document: nobody keeps them. */
const NEVER_KEPT = 'private, no-store'
const WORKSPACE = 'For the workspace the request works in (your personal one unless you chose a team); its owners only.'

const link = (description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ data: z.object({ url: z.url() }) }) } },
})

/** Another workspace's payment, or an id that is not a UUID, is as unknown as a missing one. */
const paymentParams = z.object({
  paymentId: z
    .string()
    .transform((id) => (isUuid(id) ? id : NIL_UUID))
    .openapi({ format: 'uuid' }),
})

const portal = signedInRoute(OWNER, {
  method: 'post',
  path: '/portal',
  tags,
  summary: "A link that signs you in to the payment provider's customer portal: payment method, invoices, the subscription",
  description: `${WORKSPACE} The link is short-lived: open it at once and ask again next time. 409 while the workspace has never had a paid subscription.`,
  responses: { 200: link('The portal link'), ...errorResponses(409, 503) },
})

const invoice = signedInRoute(OWNER, {
  method: 'get',
  path: '/invoices/{paymentId}',
  tags,
  summary: "A short-lived link to a payment's invoice (a PDF with Paddle)",
  description: `${WORKSPACE} Only completed payments of more than $0.00 have an invoice; any other payment, and another workspace's, is 404.`,
  request: { params: paymentParams },
  responses: { 200: link('The invoice link'), ...errorResponses(404, 503) },
})

type Portal = Pick<BillingService, 'portalUrl' | 'invoiceUrl'>

/** /api/billing: the members' billing portal and invoices (issue 33), as the Billing page offers them. */
export function createBillingApi(billing: Portal) {
  return createRouter()
    .openapi(portal, async (c) => {
      const url = await billing.portalUrl(callerOf(c.get('member')).workspace.id)
      c.header('Cache-Control', NEVER_KEPT)
      return c.json({ data: { url } }, 200)
    })
    .openapi(invoice, async (c) => {
      const url = await billing.invoiceUrl(callerOf(c.get('member')).workspace.id, c.req.valid('param').paymentId)
      c.header('Cache-Control', NEVER_KEPT)
      return c.json({ data: { url } }, 200)
    })
}
