import { CreditCard } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { PaymentTable, type PaymentRow } from './payment-table.tsx'
import { PortalButton } from './portal-button.tsx'

export interface SubscriptionView {
  planName: string
  status: string
  /** While the free trial runs: its end, which is also the first charge, of the plan's price. */
  trial: { endsLabel: string; priceLabel: string } | null
  /** 'Dec 23, 2026': the next billing date, when it renews. */
  nextRenewalLabel: string | null
  /** When a switch to Free is scheduled: the day the paid plan ends. */
  cancelAtLabel: string | null
  endsLabel: string | null
  card: { brand: string; last4: string } | null
  updatePaymentUrl: string | null
}

export function CurrentPlanCard({
  planName,
  credits,
  subscription,
  creditBalanceLabel,
}: {
  planName: string
  credits: number
  subscription: SubscriptionView | null
  /** Money the payment provider holds from a prorated downgrade ('$25.00'), or null. */
  creditBalanceLabel: string | null
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Current Plan</CardTitle>
        <CardDescription>Your plan and what is left this month.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 sm:grid-cols-3">
          <div>
            <dt className="text-sm text-muted-foreground">Plan</dt>
            <dd className="text-xl font-semibold">{planName}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Credits remaining</dt>
            <dd className="text-xl font-semibold tabular-nums">{credits}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">
              {subscription?.cancelAtLabel ? 'Plan ends' : subscription?.trial ? 'Trial ends' : 'Next renewal'}
            </dt>
            <dd className="text-xl font-semibold">
              {subscription?.cancelAtLabel ?? subscription?.trial?.endsLabel ?? subscription?.nextRenewalLabel ?? (
                <span className="text-base font-normal text-muted-foreground">None on the Free plan</span>
              )}
            </dd>
          </div>
        </dl>
        {subscription?.cancelAtLabel ? (
          <p role="status" className="mt-4 rounded-md border border-primary/40 bg-accent/40 p-3 text-sm">
            Your {subscription.planName} plan ends on {subscription.cancelAtLabel}.{' '}
            {subscription.trial ? 'It ends with the free trial, so nothing is charged. ' : ''}Then you are on the Free plan.
          </p>
        ) : subscription?.trial ? (
          <p role="status" className="mt-4 rounded-md border border-primary/40 bg-accent/40 p-3 text-sm">
            Free trial of {subscription.planName}: first charge {subscription.trial.priceLabel} on {subscription.trial.endsLabel}, then
            monthly. Switch to Free before then and nothing is charged.
          </p>
        ) : null}
        {creditBalanceLabel ? (
          <p role="status" className="mt-4 rounded-md border p-3 text-sm">
            Credit balance: <span className="font-semibold tabular-nums">{creditBalanceLabel}</span>, from a downgrade. It pays your next
            payments first.
          </p>
        ) : null}
        {subscription?.status === 'past_due' ? (
          <p role="alert" className="mt-4 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm">
            Your last payment failed. Please update your payment method to keep your plan.
          </p>
        ) : null}
        <p className="mt-4 text-xs text-muted-foreground">
          Paid plans start with a 14-day free trial and come with a 30-day money-back guarantee on new subscriptions. Monthly plans renew
          automatically until you switch to Free; partial months are not refunded.{' '}
          <Link to="/terms" className="underline hover:text-foreground">
            Refund policy
          </Link>
        </p>
      </CardContent>
    </Card>
  )
}

/**
 * The card on file and, for a member with a customer at the provider (`portal`), the way into the
 * provider's customer portal: payment method and invoices, also after a subscription has ended.
 */
export function PaymentMethodCard({ subscription, portal }: { subscription: SubscriptionView | null; portal: boolean }) {
  if (!subscription && !portal) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Payment Method</CardTitle>
        {portal ? <CardDescription>Change your card and download your invoices in the customer portal.</CardDescription> : null}
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-4">
        <p className="flex items-center gap-2 text-sm">
          <CreditCard className="size-5 text-muted-foreground" aria-hidden="true" />
          {subscription?.card ? (
            <span>
              <span className="capitalize">{subscription.card.brand}</span> ending {subscription.card.last4}
            </span>
          ) : (
            <span className="text-muted-foreground">
              {subscription ? 'Not known yet: it appears after the first payment.' : 'No subscription at the moment.'}
            </span>
          )}
        </p>
        <div className="flex flex-wrap gap-2">
          {subscription?.updatePaymentUrl ? (
            <Button asChild variant="outline">
              <a href={subscription.updatePaymentUrl} target="_blank" rel="noopener noreferrer">
                Update
              </a>
            </Button>
          ) : subscription && !portal ? (
            <Button variant="outline" disabled title="The payment provider has not sent an update link for this subscription yet.">
              Update
            </Button>
          ) : null}
          {portal ? <PortalButton /> : null}
        </div>
      </CardContent>
    </Card>
  )
}

export function BillingHistoryCard({ payments, total }: { payments: PaymentRow[]; total: number }) {
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-4">
        <div className="space-y-1.5">
          <CardTitle level={2}>Billing History</CardTitle>
          <CardDescription>Your payments, newest first.</CardDescription>
        </div>
        {total > 0 ? (
          <Button asChild variant="outline" size="sm">
            <Link to="/billing/history">View All</Link>
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {payments.length ? (
          <PaymentTable payments={payments} caption="Recent payments" />
        ) : (
          <p className="text-sm text-muted-foreground">No payments yet.</p>
        )}
      </CardContent>
    </Card>
  )
}
