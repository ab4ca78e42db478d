import { Pencil, Trash2 } from 'lucide-react'
import { Link } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { formatPrice } from '#app/components/pricing-card.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { ALLOWANCE_GROUPS, limitWords } from './plan-fields.ts'
import type { PlanRow } from './plan-row.ts'

/** The allowances a card names; the plan's form has them all. */
const AT_A_GLANCE = ['monthlyRunLimit', 'actionLimit', 'monthlyModelCalls', 'cloudConcurrency', 'devices', 'seats'] as const
const glance = ALLOWANCE_GROUPS.flatMap((group) => group.limits).filter((limit) => (AT_A_GLANCE as readonly string[]).includes(limit.field))
const included = (plan: PlanRow) =>
  ALLOWANCE_GROUPS.flatMap((group) => group.switches)
    .filter((item) => plan[item.field])
    .map((item) => item.label)

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** The plans as cards in their order: what each costs and includes, its members; edited in its own form. */
export function PlanCards({ plans }: { plans: PlanRow[] }) {
  if (plans.length === 0) return <p className="rounded-lg border p-10 text-center text-muted-foreground">No subscription plans found</p>
  return (
    <ul aria-label="Subscription plans" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {plans.map((plan) => (
        <li key={plan.id} aria-labelledby={`plan-card-${plan.id}`} className="flex flex-col rounded-lg border bg-card p-5 shadow-sm">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={`plan-card-${plan.id}`} className="text-lg font-semibold [overflow-wrap:anywhere]">
              {plan.name}
            </h3>
            {plan.highlighted ? <Badge>Most Popular</Badge> : null}
            <span className="ml-auto text-xs text-muted-foreground">Order {plan.sortOrder}</span>
          </div>
          <p className="mt-2">
            <span className="text-2xl font-bold">{formatPrice(plan.price)}</span>
            {plan.price > 0 ? <span className="text-sm text-muted-foreground">/month</span> : null}
            <span className="text-sm text-muted-foreground"> · {count(plan.creditsPerMonth, 'credit', 'credits')} a month</span>
          </p>
          <p className="text-sm text-muted-foreground">{count(plan.members, 'member', 'members')}</p>
          {plan.notForSale ? (
            <p className="mt-2 text-sm text-destructive">{plan.notForSale} Pricing and billing do not offer it until then.</p>
          ) : null}
          <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm">
            {glance.map((limit) => (
              <div key={limit.field} className="contents">
                <dt className="text-muted-foreground">{limit.label}</dt>
                <dd className="text-right tabular-nums">{limitWords(plan[limit.field], limit)}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 text-xs text-muted-foreground">
            {included(plan).length ? `Includes ${included(plan).join(', ')}.` : 'No AI, team or integration features.'}
          </p>
          <div className="mt-auto flex gap-2 pt-4">
            <Button asChild variant="outline" size="sm">
              <Link to={`/admin/subscriptions/${plan.id}`} aria-label={`Edit the ${plan.name} plan`}>
                <Pencil aria-hidden="true" /> Edit
              </Link>
            </Button>
            <ConfirmAction
              label={
                <>
                  <Trash2 aria-hidden="true" /> Delete
                </>
              }
              triggerProps={{
                variant: 'ghost',
                size: 'sm',
                'aria-label': `Delete the ${plan.name} plan`,
                className: 'text-destructive hover:text-destructive',
              }}
              title={`Delete the ${plan.name} plan?`}
              description={
                plan.members
                  ? `${plan.members} member${plan.members === 1 ? ' is' : 's are'} on this plan: it cannot be deleted until they move.`
                  : 'It disappears from the pricing and billing pages.'
              }
              confirmLabel="Delete Plan"
              fields={{ intent: 'delete-plan', planId: plan.id }}
              destructive
            />
          </div>
        </li>
      ))}
    </ul>
  )
}
