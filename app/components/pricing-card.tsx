import { Check } from 'lucide-react'
import type * as React from 'react'
import { Badge } from '#app/components/ui/badge.tsx'
import { cn } from '#app/lib/cn.ts'

export interface PricingCardPlan {
  slug: string
  name: string
  price: number
  description: string
  features: string[]
  highlighted: boolean
}

/** '$29', '$9.50'; the free plan reads 'Free'. */
export function formatPrice(price: number): string {
  if (price === 0) return 'Free'
  return `$${Number.isInteger(price) ? price : price.toFixed(2)}`
}

/** A plan as pricing shows it (the home page, and the preview beside the admin's plan form); `children` is its button. */
export function PricingCard({ plan, children }: { plan: PricingCardPlan; children: React.ReactNode }) {
  return (
    <article
      aria-labelledby={`plan-${plan.slug}`}
      className={cn(
        'relative flex h-full flex-col rounded-lg border bg-card p-6 text-card-foreground',
        plan.highlighted && 'border-primary shadow-lg ring-1 shadow-primary/10 ring-primary',
      )}
    >
      {plan.highlighted ? <Badge className="absolute -top-3 left-1/2 -translate-x-1/2">Most Popular</Badge> : null}
      <h3 id={`plan-${plan.slug}`} className="text-lg font-semibold">
        {plan.name}
      </h3>
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight">{formatPrice(plan.price)}</span>
        {plan.price > 0 ? <span className="text-muted-foreground">/month</span> : null}
      </p>
      <p className="mt-3 text-sm text-muted-foreground">{plan.description}</p>
      <ul className="mt-6 flex-1 space-y-2 text-sm">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
      <div className="mt-8">{children}</div>
    </article>
  )
}
