import { Check } from 'lucide-react'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { useCheckout, type CheckoutSetup } from '#app/components/checkout/use-checkout.ts'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'

export interface BillingPlan {
  slug: string
  name: string
  price: number
  priceLabel: string
  features: string[]
  priceId: string | null
  /** What changing to this plan is charged or credited today, and does to the credits (an estimate); null in a trial. */
  changeEstimate: string | null
}

/**
 * Available Plans. The current plan's card is disabled ('Current Plan'); a member without a
 * subscription upgrades through checkout; a subscriber upgrades, downgrades or switches to Free
 * on the subscription itself, after confirming.
 */
export function PlanCards({
  plans,
  currentSlug,
  subscription,
  checkout,
}: {
  plans: BillingPlan[]
  currentSlug: string
  subscription: {
    planName: string
    endsLabel: string | null
    cancelAtLabel: string | null
    trial: { endsLabel: string } | null
  } | null
  checkout: CheckoutSetup
}) {
  const startCheckout = useCheckout(checkout)
  const current = plans.find((plan) => plan.slug === currentSlug)

  function action(plan: BillingPlan) {
    if (plan.slug === currentSlug) {
      return (
        <Button className="w-full" variant="outline" disabled>
          Current Plan
        </Button>
      )
    }
    if (plan.price === 0) {
      if (!subscription) return null
      if (subscription.cancelAtLabel) {
        return (
          <Button className="w-full" variant="outline" disabled>
            Starts {subscription.cancelAtLabel}
          </Button>
        )
      }
      return (
        <ConfirmAction
          label="Switch to Free"
          variant="outline"
          title="Switch to the Free plan?"
          description={
            subscription.trial
              ? `Your ${subscription.planName} trial ends on ${subscription.trial.endsLabel} and nothing is charged. You keep ${subscription.planName} until then, then move to Free.`
              : `Your ${subscription.planName} subscription will not renew. You keep ${subscription.planName} until ${subscription.endsLabel ?? 'the end of the paid period'}, then move to Free. No refund is made for the rest of this month.`
          }
          confirmLabel="Switch to Free"
          fields={{ intent: 'switch-to-free' }}
          destructive
        />
      )
    }
    const label = current && plan.price < current.price ? 'Downgrade' : 'Upgrade'
    if (subscription) {
      return (
        <ConfirmAction
          label={label}
          title={`${label} to ${plan.name}?`}
          description={
            subscription.trial
              ? `Your trial moves to ${plan.name} now, free until ${subscription.trial.endsLabel}; then ${plan.priceLabel}/month. Nothing is charged today.`
              : `Your subscription moves to ${plan.name} (${plan.priceLabel}/month) now. ${
                  plan.changeEstimate ?? 'The difference for the rest of this billing period is charged or credited today.'
                }`
          }
          confirmLabel={`${label} to ${plan.name}`}
          fields={{ intent: 'change-plan', plan: plan.slug }}
        />
      )
    }
    return (
      <Button className="w-full" onClick={() => void startCheckout(plan)}>
        {label}
      </Button>
    )
  }

  return (
    <div className="grid gap-4 md:grid-cols-3">
      {plans.map((plan) => (
        <Card key={plan.slug} className={cn('flex flex-col', plan.slug === currentSlug && 'border-primary ring-1 ring-primary')}>
          <CardHeader>
            <CardTitle>{plan.name}</CardTitle>
            <CardDescription>
              <span className="text-2xl font-bold text-foreground">{plan.priceLabel}</span>
              {plan.price > 0 ? ' per month' : ''}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-1 flex-col justify-between gap-6">
            <ul className="space-y-2 text-sm">
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2">
                  <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                  {feature}
                </li>
              ))}
            </ul>
            {action(plan)}
          </CardContent>
        </Card>
      ))}
    </div>
  )
}
