import { CreditCard, FlaskConical } from 'lucide-react'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import type { Route } from './+types/billing-portal'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { formatDate, paymentRows } from '#app/features/billing/billing-view.server.ts'
import { PaymentTable } from '#app/features/billing/payment-table.tsx'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireMember, requireWorkspaceOwner } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { hasInvoice } from '#common/billing-invoices.ts'
import { ValidationError } from '#common/errors.ts'
import { isSandboxCard, SANDBOX_CARDS } from '#common/sandbox-cards.ts'

// The local payment sandbox's customer portal (BILLING_SANDBOX only; issue 33), where the Billing
// page's "Manage payment method and invoices" lands as it lands in Paddle's: the subscription, the
// card (which can be changed to another test card, through a signed webhook as Paddle would) and
// the invoices.

/** The latest payments looked through for invoices: years of monthly ones. */
const INVOICES_LOOKED_AT = 120

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const { billing, plans } = context.services
  if (billing.checkout?.kind !== 'sandbox') throw data('The payment sandbox is off.', { status: 404 })
  const workspace = requireWorkspaceOwner(user).workspace.id
  const [subscription, recent, planList] = await Promise.all([
    billing.currentSubscription(workspace),
    billing.recentPayments(workspace, INVOICES_LOOKED_AT),
    plans.list(),
  ])
  return {
    email: user.email,
    subscription: subscription
      ? {
          planName: planList.find((plan) => plan.slug === subscription.planSlug)?.name ?? subscription.planSlug,
          status: subscription.status === 'trialing' ? 'Free trial' : 'Active',
          next: subscription.cancelAt
            ? { title: 'Ends on', dateLabel: formatDate(subscription.cancelAt) }
            : subscription.nextBilledAt
              ? { title: 'Next payment', dateLabel: formatDate(subscription.nextBilledAt) }
              : null,
          card: subscription.cardBrand && subscription.cardLast4 ? { brand: subscription.cardBrand, last4: subscription.cardLast4 } : null,
        }
      : null,
    invoices: paymentRows(recent.filter(hasInvoice), planList, true),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const workspace = requireWorkspaceOwner(user).workspace.id
  const form = await request.formData()
  const card = form.get('card')
  const outcome = await attempt(async () => {
    if (form.get('intent') !== 'update-payment-method' || !isSandboxCard(card)) throw new ValidationError('Choose a test card.')
    await context.services.billing.sandboxUpdatePaymentMethod(workspace, card)
    return SANDBOX_CARDS[card]
  })
  if (!outcome.ok) return data({ error: outcome.error.message }, { status: outcome.error.status })
  const flash = await flashHeader({
    type: 'success',
    title: 'Payment method updated',
    description: `${outcome.value.label} ending ${outcome.value.last4} pays your next payments.`,
  })
  return redirect('/billing/portal', { headers: withCookies([flash]) })
}

export const meta = privatePageMeta('Customer portal')

export default function SandboxPortalPage() {
  const { email, subscription, invoices } = useLoaderData<typeof loader>()
  const failure = useActionData<typeof action>()?.error
  const updating = useNavigation().formData?.get('intent') === 'update-payment-method'
  // The other test card is offered first: an update is a change of card.
  const suggested = Object.entries(SANDBOX_CARDS).find(([, card]) => card.last4 !== subscription?.card?.last4)?.[0]
  return (
    <main className="max-w-3xl space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Customer portal</h1>
        <Link to="/billing" className="text-sm text-primary hover:underline">
          Back to Billing
        </Link>
      </div>
      <p className="flex items-start gap-2 rounded-md border border-dashed p-3 text-sm text-muted-foreground">
        <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Payment sandbox: this page stands in for Paddle&apos;s customer portal. No real card is stored or charged; a change sends the same
        signed notification to this server that Paddle would.
      </p>

      <Card>
        <CardHeader>
          <CardTitle level={2}>Subscription</CardTitle>
          <CardDescription>Billed to {email}.</CardDescription>
        </CardHeader>
        <CardContent>
          {subscription ? (
            <dl className="grid gap-4 sm:grid-cols-3">
              <div>
                <dt className="text-sm text-muted-foreground">Plan</dt>
                <dd className="font-semibold">Aether {subscription.planName}</dd>
              </div>
              <div>
                <dt className="text-sm text-muted-foreground">Status</dt>
                <dd className="font-semibold">{subscription.status}</dd>
              </div>
              {subscription.next ? (
                <div>
                  <dt className="text-sm text-muted-foreground">{subscription.next.title}</dt>
                  <dd className="font-semibold">{subscription.next.dateLabel}</dd>
                </div>
              ) : null}
            </dl>
          ) : (
            <p className="text-sm text-muted-foreground">No active subscription. Your invoices stay here.</p>
          )}
        </CardContent>
      </Card>

      {subscription ? (
        <Card>
          <CardHeader>
            <CardTitle level={2}>Payment method</CardTitle>
            <CardDescription className="flex items-center gap-2">
              <CreditCard className="size-4" aria-hidden="true" />
              {subscription.card ? (
                <span>
                  <span className="capitalize">{subscription.card.brand}</span> •••• {subscription.card.last4}
                </span>
              ) : (
                'No card yet.'
              )}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" className="space-y-4">
              <input type="hidden" name="intent" value="update-payment-method" />
              <fieldset className="space-y-2">
                <legend className="mb-2 text-sm font-medium">Pay with another test card</legend>
                {Object.entries(SANDBOX_CARDS).map(([key, card]) => (
                  <label key={key} className="flex items-center gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary">
                    <input type="radio" name="card" value={key} defaultChecked={key === suggested} required />
                    <span>
                      {card.label} <span className="font-mono">{card.number}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
              {failure ? (
                <p role="alert" className="text-sm text-destructive">
                  {failure}
                </p>
              ) : null}
              <Button type="submit" variant="outline" disabled={updating}>
                {updating ? 'Updating...' : 'Update payment method'}
              </Button>
            </Form>
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle level={2}>Invoices</CardTitle>
          <CardDescription>Completed payments of more than $0.00, newest first.</CardDescription>
        </CardHeader>
        <CardContent>
          {invoices.length ? (
            <PaymentTable payments={invoices} caption="Invoices" />
          ) : (
            <p className="text-sm text-muted-foreground">
              No invoices yet: a free trial&apos;s start has none; the first charge brings one.
            </p>
          )}
        </CardContent>
      </Card>
    </main>
  )
}
