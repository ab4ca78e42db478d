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
  monthlyRunLimit: number | null
  actionLimit: number | null
  monthlyModelCalls: number | null
  aiPlanning: boolean
  modelRepair: boolean
  suggestions: boolean
  teams: boolean
  seats: number
  advancedTemplates: boolean
  triggerUrls: boolean
  webhooks: number
  vaultSecrets: number | null
  cloudConcurrency: number
  devices: number | null
  scheduleMinMinutes: number | null
  dataRowLimit: number | null
  runFilesDays: number | null
  personWaitMinutes: number | null
  scripts: boolean
  /** Where the plan stands in pricing, billing and every list of plans: lower first. */
  sortOrder: number
  /** Why members cannot buy it ('Not for sale: add its Paddle price id.'), or null. */
  notForSale: string | null
  members: number
}

type Switch = 'highlighted' | 'aiPlanning' | 'modelRepair' | 'suggestions' | 'teams' | 'advancedTemplates' | 'triggerUrls' | 'scripts'

const HEADERS = [
  'Order',
  'Name',
  'Price',
  'Credits / month',
  'Description',
  'Features (one per line)',
  'Most Popular',
  'Includes (blank: unlimited)',
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
            <Field plan={plan} field="sortOrder" value={String(plan.sortOrder)} label="Order" type="number" className="w-16" />
          </td>
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
            <SwitchField plan={plan} field="highlighted" label={`${plan.name} is Most Popular`} />
          </td>
          <td className="px-3 py-2">
            <Allowances plan={plan} />
          </td>
          <td className="px-3 py-2">
            <Field
              plan={plan}
              field="paddlePriceId"
              value={plan.paddlePriceId ?? ''}
              label="Paddle price id"
              className="w-44 font-mono text-xs"
              describedBy={plan.notForSale ? `plan-${plan.id}-sale` : undefined}
            />
            {plan.notForSale ? (
              <p id={`plan-${plan.id}-sale`} className="mt-1 w-44 text-xs text-destructive">
                {plan.notForSale} Pricing and billing do not offer it until then.
              </p>
            ) : null}
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
  describedBy,
}: {
  plan: PlanRow
  field: string
  value: string
  label: string
  type?: 'text' | 'number'
  multiline?: boolean
  className?: string
  /** The id of a note about the field (why the plan is not for sale). */
  describedBy?: string
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
    'aria-describedby': describedBy,
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

const limitText = (value: number | null) => (value === null ? '' : String(value))

/** What the plan includes (docs/decisions/020): its limits (blank is unlimited) and its AI features. */
function Allowances({ plan }: { plan: PlanRow }) {
  const limits = [
    { field: 'monthlyRunLimit', label: 'Runs / month', value: plan.monthlyRunLimit },
    { field: 'actionLimit', label: 'Actions / automation', value: plan.actionLimit },
    { field: 'monthlyModelCalls', label: 'Model calls / month', value: plan.monthlyModelCalls },
    { field: 'seats', label: 'Seats / workspace', value: plan.seats },
    { field: 'webhooks', label: 'Webhook endpoints', value: plan.webhooks },
    { field: 'vaultSecrets', label: 'Vault secrets', value: plan.vaultSecrets },
    { field: 'cloudConcurrency', label: 'Cloud runs at once', value: plan.cloudConcurrency },
    { field: 'devices', label: 'Devices', value: plan.devices },
    { field: 'scheduleMinMinutes', label: 'Shortest schedule (min)', value: plan.scheduleMinMinutes },
    { field: 'dataRowLimit', label: 'Data rows / run', value: plan.dataRowLimit },
    { field: 'runFilesDays', label: 'Run files kept (days)', value: plan.runFilesDays },
    { field: 'personWaitMinutes', label: 'Wait for a person (min)', value: plan.personWaitMinutes },
  ] as const
  const switches = [
    { field: 'aiPlanning', label: 'AI planning' },
    { field: 'modelRepair', label: 'Self-repair by model' },
    { field: 'suggestions', label: 'Suggestions' },
    { field: 'teams', label: 'Team workspaces' },
    { field: 'advancedTemplates', label: 'Advanced templates' },
    { field: 'triggerUrls', label: 'Trigger URLs' },
    { field: 'scripts', label: 'JavaScript steps' },
  ] as const
  return (
    <div className="grid w-56 gap-1.5 text-xs">
      {limits.map((limit) => (
        <label key={limit.field} className="flex items-center justify-between gap-2">
          <span>{limit.label}</span>
          <Field plan={plan} field={limit.field} value={limitText(limit.value)} label={limit.label} type="number" className="w-24" />
        </label>
      ))}
      {switches.map((item) => (
        <label key={item.field} className="flex items-center gap-2">
          <SwitchField plan={plan} field={item.field} label={`${item.label} in ${plan.name}`} />
          <span>{item.label}</span>
        </label>
      ))}
    </div>
  )
}

function SwitchField({ plan, field, label }: { plan: PlanRow; field: Switch; label: string }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data)
  const [checked, setRequested] = usePendingValue(plan[field], fetcher.state)
  return (
    <input
      type="checkbox"
      aria-label={label}
      className="size-4 accent-primary"
      checked={checked}
      onChange={(event) => {
        setRequested(event.target.checked)
        void fetcher.submit({ intent: 'update-plan', planId: plan.id, field, value: String(event.target.checked) }, { method: 'post' })
      }}
    />
  )
}
