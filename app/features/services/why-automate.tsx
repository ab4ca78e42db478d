import { BadgeCheck, Clock, PiggyBank, TrendingUp } from 'lucide-react'
import { WHY_AUTOMATE } from './services-content.ts'

const ICONS = [Clock, PiggyBank, TrendingUp, BadgeCheck]

export function WhyAutomate() {
  return (
    <section aria-labelledby="why-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h2 id="why-heading" className="text-center text-3xl font-bold tracking-tight">
        Why Automate?
      </h2>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {WHY_AUTOMATE.map((item, index) => {
          const Icon = ICONS[index] ?? Clock
          return (
            <li key={item.title} className="rounded-lg border bg-card p-6 text-card-foreground">
              <Icon className="size-6 text-primary" aria-hidden="true" />
              <h3 className="mt-4 font-semibold">{item.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{item.text}</p>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
