import { useEffect } from 'react'
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import type { Route } from './+types/billing'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { BillingHistoryCard, CurrentPlanCard, PaymentMethodCard } from '#app/features/billing/billing-summary.tsx'
import { formatDate, loadBilling } from '#app/features/billing/billing-view.server.ts'
import { PlanCards } from '#app/features/billing/plan-cards.tsx'
import { OPEN_PORTAL } from '#app/features/billing/portal-button.tsx'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader, type Flash } from '#app/lib/flash.server.ts'
import { requireMember, requireWorkspaceOwner } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { toast } from '#app/lib/toast.ts'
import { ValidationError } from '#common/errors.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  return loadBilling(context, user)
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const workspace = requireWorkspaceOwner(user).workspace.id
  const form = await request.formData()
  const intent = String(form.get('intent'))
  const { billing, plans } = context.services
  const planName = async (slug: string) => (await plans.list()).find((plan) => plan.slug === slug)?.name ?? slug

  if (intent === OPEN_PORTAL) {
    // A fresh link each time (Paddle's sign the member in and expire); never kept, never shown.
    const opened = await attempt(() => billing.portalUrl(workspace))
    if (!opened.ok) return data({ error: opened.error.message, title: 'Customer portal unavailable' }, { status: opened.error.status })
    return redirect(opened.value)
  }

  const outcome = await attempt(async (): Promise<Flash> => {
    if (intent === 'switch-to-free') {
      const { endsAt, trial } = await billing.cancelToFree(workspace)
      const until = endsAt ? formatDate(endsAt) : null
      return {
        type: 'success',
        title: 'Switch to Free scheduled',
        description: trial
          ? `You keep your trial${until ? ` until ${until}` : ''}, then move to Free. Nothing is charged.`
          : until
            ? `You keep your plan until ${until}, then move to Free.`
            : 'You move to Free at the end of the paid period.',
      }
    }
    if (intent === 'change-plan') {
      const slug = String(form.get('plan') ?? '').slice(0, 100)
      await billing.changePlan(workspace, slug, user)
      const subscription = await billing.currentSubscription(workspace)
      return subscription?.planSlug === slug
        ? { type: 'success', title: 'Plan updated', description: `You are now on the ${await planName(slug)} plan.` }
        : { type: 'success', title: 'Plan change requested', description: 'Your plan changes as soon as the payment provider confirms it.' }
    }
    if (intent === 'sandbox-end-period') {
      const result = await billing.sandboxEndPeriod(workspace)
      if (result === 'canceled') {
        return { type: 'info', title: 'Subscription ended', description: 'The subscription is over: you are on the Free plan.' }
      }
      if (result === 'trial-ended') {
        return { type: 'success', title: 'Trial ended', description: 'The first month was charged and its credits added.' }
      }
      return { type: 'success', title: 'Subscription renewed', description: 'A new month was charged and its credits added.' }
    }
    throw new ValidationError(`Unknown billing action: ${intent.slice(0, 40)}`)
  })
  if (!outcome.ok) return data({ error: outcome.error.message, title: 'Error updating plan' }, { status: outcome.error.status })
  return redirect('/billing', { headers: withCookies([await flashHeader(outcome.value)]) })
}

export const meta = privatePageMeta('Billing')

export default function BillingPage() {
  const {
    error,
    planSlug,
    planName,
    credits,
    creditBalanceLabel,
    subscription,
    plans,
    payments,
    paymentCount,
    checkout,
    sandbox,
    workspaceName,
    canManage,
    portal,
  } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  useEffect(() => {
    if (actionData?.error) toast.error(actionData.title, { description: actionData.error })
  }, [actionData])
  useEffect(() => {
    if (error) toast.error('Error loading billing page', { description: error })
  }, [error])

  return (
    <main className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Billing{workspaceName ? ` · ${workspaceName}` : ''}</h1>
      {canManage ? null : (
        <p role="note" className="rounded-md border p-4 text-sm text-muted-foreground">
          Only the workspace&apos;s owners change its plan and payment details. You can see its plan and credits here.
        </p>
      )}
      <CurrentPlanCard planName={planName} credits={credits} subscription={subscription} creditBalanceLabel={creditBalanceLabel} />
      {error ? (
        <p role="alert" className="rounded-md border border-destructive/50 p-4 text-sm">
          {error}{' '}
          <a href="/billing" className="font-medium underline underline-offset-4">
            Reload
          </a>
        </p>
      ) : null}
      {canManage ? (
        <section aria-labelledby="plans-heading" className="space-y-4">
          <h2 id="plans-heading" className="text-lg font-semibold">
            Available Plans
          </h2>
          <PlanCards plans={plans} currentSlug={planSlug} subscription={subscription} checkout={checkout} />
        </section>
      ) : null}
      {canManage ? <PaymentMethodCard subscription={subscription} portal={portal} /> : null}
      <BillingHistoryCard payments={payments} total={paymentCount} />
      {sandbox && subscription && canManage ? (
        <SandboxTools ends={subscription.cancelAtLabel ? 'subscription' : subscription.trial ? 'trial' : 'period'} />
      ) : null}
    </main>
  )
}

const SANDBOX_ENDS = {
  subscription: 'The scheduled switch to Free happens now.',
  trial: 'The free trial ends now: the first month is charged.',
  period: 'The next month is charged now.',
} as const

/** Only with BILLING_SANDBOX: moves time forward, as Paddle would at the end of the period (or trial). */
function SandboxTools({ ends }: { ends: keyof typeof SANDBOX_ENDS }) {
  const busy = useNavigation().formData?.get('intent') === 'sandbox-end-period'
  return (
    <Card className="border-dashed">
      <CardHeader>
        <CardTitle level={2}>Payment sandbox</CardTitle>
        <CardDescription>Local testing only: no real payments are made. {SANDBOX_ENDS[ends]}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post">
          <input type="hidden" name="intent" value="sandbox-end-period" />
          <Button type="submit" variant="outline" disabled={busy}>
            {ends === 'period' ? 'Renew now (next billing period)' : 'End the billing period now'}
          </Button>
        </Form>
      </CardContent>
    </Card>
  )
}
