import { Form, Link } from 'react-router'
import { useCheckout, type CheckoutSetup } from '#app/components/checkout/use-checkout.ts'
import { PricingCard, type PricingCardPlan } from '#app/components/pricing-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { SectionHeading } from './section-heading.tsx'

export interface PricingPlan extends PricingCardPlan {
  priceId: string | null
}

export function PricingSection({
  plans,
  currentPlan,
  subscribed,
  checkout,
}: {
  plans: PricingPlan[]
  currentPlan: string | null
  subscribed: boolean
  checkout: CheckoutSetup
}) {
  const startCheckout = useCheckout(checkout)
  return (
    <section id="pricing" aria-labelledby="pricing-heading" className="scroll-mt-20 border-t bg-muted/30 py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="pricing-heading"
          eyebrow="Pricing"
          title="Simple plans that grow with you"
          intro="Start free. Upgrade when automation becomes part of your day. Cancel any time."
        />
        <div className="mt-12 grid items-start gap-6 md:grid-cols-3">
          {plans.map((plan) => (
            <PricingCard key={plan.slug} plan={plan}>
              <PlanAction
                plan={plan}
                signedIn={Boolean(checkout.buyer ?? checkout.refusal)}
                current={plan.slug === currentPlan}
                subscribed={subscribed}
                onCheckout={() => void startCheckout(plan)}
              />
            </PricingCard>
          ))}
        </div>
        <div className="mx-auto mt-10 flex max-w-3xl flex-col items-center justify-between gap-4 rounded-lg border bg-card p-6 text-center sm:flex-row sm:text-left">
          <div>
            <h3 className="font-semibold">Need a custom plan for your enterprise?</h3>
            <p className="mt-1 text-sm text-muted-foreground">
              Volume pricing, custom integrations and dedicated support for larger teams.
            </p>
          </div>
          <Button asChild variant="outline">
            <Link to="/contact">Contact Sales</Link>
          </Button>
        </div>
      </div>
    </section>
  )
}

/**
 * Spec section 4: a visitor signs in first; the Free plan takes a member to the dashboard; a paid
 * plan opens checkout. A subscriber changes plans on the Billing page.
 */
function PlanAction({
  plan,
  signedIn,
  current,
  subscribed,
  onCheckout,
}: {
  plan: PricingPlan
  signedIn: boolean
  current: boolean
  subscribed: boolean
  onCheckout: () => void
}) {
  const variant = plan.highlighted ? 'default' : 'outline'
  const label = plan.price === 0 ? 'Get Started' : `Choose ${plan.name}`
  if (!signedIn) {
    return (
      <Button asChild variant={variant} className="w-full">
        <Link to="/auth">{label}</Link>
      </Button>
    )
  }
  if (plan.price === 0) {
    return (
      <Form method="post" action="/select-free-plan">
        <Button type="submit" variant={variant} className="w-full">
          {label}
        </Button>
      </Form>
    )
  }
  if (current || subscribed) {
    return (
      <Button asChild variant="outline" className="w-full">
        <Link to="/billing">{current ? 'Manage Plan' : `Switch to ${plan.name}`}</Link>
      </Button>
    )
  }
  return (
    <Button type="button" variant={variant} className="w-full" onClick={onCheckout}>
      {label}
    </Button>
  )
}
