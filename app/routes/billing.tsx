import { useLoaderData } from 'react-router'
import { toast } from '#app/lib/toast.ts'
import type { Route } from './+types/billing'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { requireMember } from '#app/lib/guards.server.ts'

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const plans = await context.services.plans.list()
  return {
    currentPlan: user.profile.subscriptionPlan,
    credits: user.profile.credits,
    plans: plans.map((plan) => ({ slug: plan.slug, name: plan.name, price: plan.price, features: plan.features })),
  }
}

export const meta: Route.MetaFunction = () => [{ title: 'Billing | Aether' }, { name: 'robots', content: 'noindex' }]

export default function BillingPage() {
  const { currentPlan, credits, plans } = useLoaderData<typeof loader>()
  const current = plans.find((plan) => plan.slug === currentPlan)
  return (
    <main className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Billing</h1>
      <Card>
        <CardHeader>
          <CardTitle>Current Plan</CardTitle>
          <CardDescription>
            {current?.name ?? 'Free'} · {credits} credits remaining
          </CardDescription>
        </CardHeader>
      </Card>
      <section aria-labelledby="plans-heading" className="space-y-4">
        <h2 id="plans-heading" className="text-lg font-semibold">
          Available Plans
        </h2>
        <div className="grid gap-4 md:grid-cols-3">
          {plans.map((plan) => {
            const isCurrent = plan.slug === currentPlan
            return (
              <Card key={plan.slug} className={isCurrent ? 'border-primary' : undefined}>
                <CardHeader>
                  <CardTitle>{plan.name}</CardTitle>
                  <CardDescription>${plan.price}/month</CardDescription>
                </CardHeader>
                <CardContent className="space-y-4">
                  <ul className="space-y-1 text-sm text-muted-foreground">
                    {plan.features.map((feature) => (
                      <li key={feature}>{feature}</li>
                    ))}
                  </ul>
                  <Button
                    className="w-full"
                    variant={isCurrent ? 'outline' : 'default'}
                    disabled={isCurrent}
                    onClick={() =>
                      toast.error('Checkout Not Available', {
                        description: 'Our payment system is currently being set up. Please try again later.',
                      })
                    }
                  >
                    {isCurrent ? 'Current Plan' : 'Upgrade'}
                  </Button>
                </CardContent>
              </Card>
            )
          })}
        </div>
      </section>
    </main>
  )
}
