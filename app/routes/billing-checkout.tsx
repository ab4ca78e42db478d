import { FlaskConical, Lock } from 'lucide-react'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import type { Route } from './+types/billing-checkout'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { formatDate, formatMoney } from '#app/features/billing/billing-view.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireMember, requireWorkspaceOwner } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

// The local payment sandbox's checkout (BILLING_SANDBOX only; docs/decisions/010-payments.md).
// Paying here sends Paddle-shaped, signed webhooks to our own endpoint; the plan changes there.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  if (context.services.billing.checkout?.kind !== 'sandbox') throw data('The payment sandbox is off.', { status: 404 })
  const buyer = { id: requireWorkspaceOwner(user).workspace.id, email: user.email, emailVerified: user.emailVerified }
  const slug = new URL(request.url).searchParams.get('plan') ?? ''
  const outcome = await attempt(async () => {
    const { plan } = await context.services.billing.checkoutFor(buyer, slug)
    return { plan, trial: await context.services.billing.sandboxTrialFor(buyer.id) }
  })
  if (!outcome.ok) return { plan: null, trial: null, dueTodayLabel: null, error: outcome.error.message, email: user.email }
  const { plan, trial } = outcome.value
  return {
    plan: { slug: plan.slug, name: plan.name, priceLabel: formatMoney(plan.price) },
    // As Paddle's checkout shows a trial: nothing due today, the price from the trial's end.
    trial: trial ? { days: trial.days, endsLabel: formatDate(trial.endsAt) } : null,
    dueTodayLabel: formatMoney(trial ? 0 : plan.price),
    error: null,
    email: user.email,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const form = await request.formData()
  const slug = String(form.get('plan') ?? '').slice(0, 100)
  const card = form.get('card') === 'declined' ? 'declined' : 'success'
  const buyer = { id: requireWorkspaceOwner(user).workspace.id, email: user.email, emailVerified: user.emailVerified }
  const outcome = await attempt(() => context.services.billing.sandboxPurchase(buyer, slug, card))
  if (!outcome.ok) return data({ error: outcome.error.message }, { status: outcome.error.status })
  if (outcome.value === 'declined') {
    return data({ error: 'The card was declined. No payment was taken: try another card.' }, { status: 402 })
  }
  const flash = await flashHeader({
    type: 'success',
    title: 'Purchase Successful',
    description: 'Thank you for your purchase! Your account will be upgraded shortly.',
  })
  return redirect('/dashboard', { headers: withCookies([flash]) })
}

export const meta = privatePageMeta('Checkout')

export default function SandboxCheckoutPage() {
  const { plan, trial, dueTodayLabel, error, email } = useLoaderData<typeof loader>()
  const failure = useActionData<typeof action>()?.error
  const navigation = useNavigation()
  const paying = navigation.state !== 'idle' && navigation.formData?.get('card') !== undefined
  if (!plan) {
    return (
      <main className="max-w-lg space-y-4">
        <h1 className="text-2xl font-semibold tracking-tight">Checkout</h1>
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
        <Link to="/billing" className="text-sm text-primary hover:underline">
          Back to Billing
        </Link>
      </main>
    )
  }
  return (
    <main className="max-w-lg space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Checkout</h1>
      <p className="flex items-start gap-2 rounded-md border border-dashed p-3 text-sm text-muted-foreground">
        <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Payment sandbox: no real card is charged. Paying sends the same signed notifications to this server that Paddle would.
      </p>
      <Card>
        <CardHeader>
          <CardTitle level={2}>Aether {plan.name}</CardTitle>
          <CardDescription>
            {trial
              ? `${trial.days}-day free trial, then ${plan.priceLabel} per month, billed to ${email}. Switch to Free on the Billing page before the trial ends and nothing is charged.`
              : `${plan.priceLabel} per month, billed to ${email}. Cancel any time from the Billing page.`}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="grid grid-cols-2 gap-2 rounded-md border p-3 text-sm">
            <dt className="text-muted-foreground">Test card</dt>
            <dd className="font-mono">4242 4242 4242 4242</dd>
            <dt className="text-muted-foreground">Due today</dt>
            <dd>
              <span className="font-semibold">{dueTodayLabel}</span>
              {trial ? (
                <span className="block text-muted-foreground">
                  then {plan.priceLabel}/month from {trial.endsLabel}
                </span>
              ) : null}
            </dd>
          </dl>
          {failure ? (
            <p role="alert" className="text-sm text-destructive">
              {failure}
            </p>
          ) : null}
          <Form method="post" className="flex flex-col gap-2 sm:flex-row">
            <input type="hidden" name="plan" value={plan.slug} />
            <Button type="submit" name="card" value="success" className="flex-1" disabled={paying}>
              <Lock aria-hidden="true" /> {paying ? 'Processing...' : trial ? 'Start free trial' : `Pay ${plan.priceLabel}`}
            </Button>
            <Button type="submit" name="card" value="declined" variant="outline" disabled={paying}>
              Use a declined card
            </Button>
          </Form>
          <Link to="/billing" className="inline-block text-sm text-muted-foreground hover:text-foreground">
            Cancel and go back
          </Link>
        </CardContent>
      </Card>
    </main>
  )
}
