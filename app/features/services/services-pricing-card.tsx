import { Check } from 'lucide-react'

export function ServicesPricingCard({ hourlyRateUsd }: { hourlyRateUsd: number }) {
  return (
    <section aria-labelledby="services-pricing-heading" className="rounded-lg border border-primary/40 bg-card p-6 text-card-foreground">
      <h2 id="services-pricing-heading" className="text-2xl font-bold tracking-tight">
        Pricing
      </h2>
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight">${hourlyRateUsd}</span>
        <span className="text-muted-foreground">/hour</span>
      </p>
      <p className="mt-2 text-sm text-muted-foreground">Or a fixed price based on project scope.</p>
      <ul className="mt-6 space-y-2 text-sm">
        {['Hourly billing for open-ended work', 'A fixed price for a well-defined project', 'A reply within 24 hours'].map((item) => (
          <li key={item} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            {item}
          </li>
        ))}
      </ul>
    </section>
  )
}
