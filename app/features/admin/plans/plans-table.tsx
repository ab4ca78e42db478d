import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useFetcher } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { DataTable, EmptyRow } from '#app/components/data-table.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { usePendingValue } from '../use-pending-value.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'

export interface PlanRow {
  id: string
  slug: string
  name: string
  price: number
  creditsPerMonth: number
  description: string
  features: string[]
  highlighted: boolean
  paddlePriceId: string | null
  members: number
}

const HEADERS = [
  'Name',
  'Price',
  'Credits / month',
  'Description',
  'Features (one per line)',
  'Most Popular',
  'Paddle price id',
  'Members',
  'Actions',
]

/** The editable plans table: each field is saved on its own when it loses focus (by plan id). */
export function PlansTable({ plans }: { plans: PlanRow[] }) {
  return (
    <DataTable caption="Subscription plans" headers={HEADERS}>
      {plans.length === 0 ? <EmptyRow colSpan={HEADERS.length}>No subscription plans found</EmptyRow> : null}
      {plans.map((plan) => (
        <tr key={plan.id} className="border-b align-top last:border-0">
          <td className="px-3 py-2">
            <Field plan={plan} field="name" value={plan.name} label="Name" className="w-32" />
          </td>
          <td className="px-3 py-2">
            <Field plan={plan} field="price" value={String(plan.price)} label="Price" type="number" className="w-24" />
          </td>
          <td className="px-3 py-2">
            <Field
              plan={plan}
              field="creditsPerMonth"
              value={String(plan.creditsPerMonth)}
              label="Credits per month"
              type="number"
              className="w-24"
            />
          </td>
          <td className="px-3 py-2">
            <Field plan={plan} field="description" value={plan.description} label="Description" multiline className="w-56" />
          </td>
          <td className="px-3 py-2">
            <Field plan={plan} field="features" value={plan.features.join('\n')} label="Features" multiline className="w-64" />
          </td>
          <td className="px-3 py-2">
            <HighlightedToggle plan={plan} />
          </td>
          <td className="px-3 py-2">
            <Field
              plan={plan}
              field="paddlePriceId"
              value={plan.paddlePriceId ?? ''}
              label="Paddle price id"
              className="w-44 font-mono text-xs"
            />
          </td>
          <td className="px-3 py-2 text-center tabular-nums">{plan.members}</td>
          <td className="px-3 py-2">
            <ConfirmAction
              label={<Trash2 aria-hidden="true" />}
              triggerProps={{
                variant: 'ghost',
                size: 'icon',
                'aria-label': `Delete the ${plan.name} plan`,
                title: 'Delete plan',
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
          </td>
        </tr>
      ))}
    </DataTable>
  )
}

function Field({
  plan,
  field,
  value,
  label,
  type = 'text',
  multiline = false,
  className,
}: {
  plan: PlanRow
  field: string
  value: string
  label: string
  type?: 'text' | 'number'
  multiline?: boolean
  className?: string
}) {
  const fetcher = useFetcher<ActionResult>()
  const [draft, setDraft] = useState(value)
  const [saved, setSaved] = useState(value)
  const [submitted, setSubmitted] = useState<string | null>(null)
  if (saved !== value) {
    setSaved(value)
    // A newly stored value (as the server normalised it) replaces the field, unless the admin has
    // typed since the last value or their last save.
    if (draft === saved || draft === submitted) setDraft(value)
  }
  // A refused value goes back to what is stored.
  useActionToast(fetcher.data, { error: () => setDraft(value) })
  const save = () => {
    if (draft === value) return
    setSubmitted(draft)
    fetcher.submit({ intent: 'update-plan', planId: plan.id, field, value: draft }, { method: 'post' })
  }
  const props = {
    'aria-label': `${label} of ${plan.name}`,
    value: draft,
    onBlur: save,
    className,
  }
  return multiline ? (
    <Textarea {...props} rows={3} onChange={(event) => setDraft(event.target.value)} />
  ) : (
    <Input
      {...props}
      type={type}
      min={type === 'number' ? 0 : undefined}
      step={field === 'price' ? '0.01' : undefined}
      onChange={(event) => setDraft(event.target.value)}
      className={`h-9 ${className ?? ''}`}
    />
  )
}

function HighlightedToggle({ plan }: { plan: PlanRow }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data)
  const [checked, setRequested] = usePendingValue(plan.highlighted, fetcher.state)
  return (
    <input
      type="checkbox"
      aria-label={`${plan.name} is Most Popular`}
      className="size-4 accent-primary"
      checked={checked}
      onChange={(event) => {
        setRequested(event.target.checked)
        void fetcher.submit(
          { intent: 'update-plan', planId: plan.id, field: 'highlighted', value: String(event.target.checked) },
          { method: 'post' },
        )
      }}
    />
  )
}
