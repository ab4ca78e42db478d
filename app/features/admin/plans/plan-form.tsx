import { Save } from 'lucide-react'
import type * as React from 'react'
import { useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { PricingCard, type PricingCardPlan } from '#app/components/pricing-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { ALLOWANCE_GROUPS, type LimitField } from './plan-fields.ts'
import type { PlanRow } from './plan-row.ts'

type Refusal = Extract<ActionResult, { ok: false }> | null

/** What pricing would show, read from the form as the admin types. */
function previewOf(form: HTMLFormElement, slug: string): PricingCardPlan {
  const values = new FormData(form)
  const text = (name: string) => String(values.get(name) ?? '')
  const price = Number(text('price'))
  return {
    slug,
    name: text('name').trim() || 'Untitled plan',
    price: Number.isFinite(price) && price > 0 ? price : 0,
    description: text('description').trim(),
    features: [
      ...new Set(
        text('features')
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean),
      ),
    ],
    highlighted: values.get('highlighted') === 'on',
  }
}

/**
 * One plan's form: its price and credits, what pricing says of it, and every allowance in groups,
 * saved together ('Plan updated' / 'Error updating plan' with the refused field marked), beside
 * a preview of its pricing card that follows the typing.
 */
export function PlanForm({ plan, refusal }: { plan: PlanRow; refusal: Refusal }) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save-plan'
  const [preview, setPreview] = useState<PricingCardPlan>({ ...plan, slug: 'preview' })
  // A refusal names its field, or a line of it ('features.1').
  const isRefused = (name: string) => refusal?.field?.split('.')[0] === name
  const field = (name: string) => ({
    id: `plan-${name}`,
    name,
    'aria-invalid': isRefused(name) || undefined,
    'aria-describedby': isRefused(name) ? `plan-${name}-error` : undefined,
  })
  const refused = (name: string) =>
    isRefused(name) ? (
      <p id={`plan-${name}-error`} className="text-sm text-destructive">
        {refusal?.error.description}
      </p>
    ) : null
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Form method="post" noValidate className="space-y-6" onChange={(event) => setPreview(previewOf(event.currentTarget, 'preview'))}>
        <input type="hidden" name="intent" value="save-plan" />
        <Group title="Price and credits">
          <Text label="Price (USD per month)" {...field('price')} inputMode="decimal" defaultValue={plan.price} />
          {refused('price')}
          <Text label="Credits per month" {...field('creditsPerMonth')} inputMode="numeric" defaultValue={plan.creditsPerMonth} />
          {refused('creditsPerMonth')}
        </Group>
        <Group title="On the pricing page">
          <Text label="Name" {...field('name')} maxLength={60} defaultValue={plan.name} />
          {refused('name')}
          <Text label="Description" {...field('description')} multiline maxLength={300} defaultValue={plan.description} />
          {refused('description')}
          <Text label="Features (one per line)" {...field('features')} multiline rows={5} defaultValue={plan.features.join('\n')} />
          {refused('features')}
          <Check label="Most Popular" name="highlighted" defaultChecked={plan.highlighted} />
          <Text
            label="Order"
            {...field('sortOrder')}
            inputMode="numeric"
            defaultValue={plan.sortOrder}
            hint="Lower comes first in pricing, billing and every list of plans."
          />
          {refused('sortOrder')}
          <Text
            label="Paddle price id"
            {...field('paddlePriceId')}
            className="font-mono"
            defaultValue={plan.paddlePriceId ?? ''}
            hint={plan.notForSale ? `${plan.notForSale} Pricing and billing do not offer it until then.` : undefined}
            warn={Boolean(plan.notForSale)}
          />
          {refused('paddlePriceId')}
        </Group>
        {ALLOWANCE_GROUPS.map((group) => (
          <Group key={group.title} title={group.title}>
            {group.limits.map((limit) => (
              <div key={limit.field} className="space-y-2">
                <Limit limit={limit} stored={plan[limit.field]} {...field(limit.field)} />
                {refused(limit.field)}
              </div>
            ))}
            {group.switches.map((item) => (
              <Check key={item.field} label={item.label} name={item.field} defaultChecked={plan[item.field]} />
            ))}
          </Group>
        ))}
        <Button type="submit" disabled={saving}>
          <Save aria-hidden="true" /> {saving ? 'Saving…' : 'Save Plan'}
        </Button>
      </Form>
      <aside aria-label="Preview on pricing" className="space-y-3 lg:sticky lg:top-6">
        <h2 className="text-sm font-medium text-muted-foreground">Preview on pricing</h2>
        <PricingCard plan={preview}>
          <Button type="button" variant={preview.highlighted ? 'default' : 'outline'} className="w-full" disabled>
            {preview.price === 0 ? 'Get Started' : `Choose ${preview.name}`}
          </Button>
        </PricingCard>
      </aside>
    </div>
  )
}

function Group({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="grid gap-3 rounded-lg border p-4 sm:grid-cols-2 [&>*]:min-w-0">
      <legend className="px-1 text-sm font-semibold">{title}</legend>
      {children}
    </fieldset>
  )
}

type TextProps = React.ComponentProps<'input'> & {
  id: string
  name: string
  label: string
  hint?: string
  warn?: boolean
  multiline?: boolean
  rows?: number
}

function Text({ label, hint, warn, multiline, rows, id, className, ...props }: TextProps) {
  const describedBy = [props['aria-describedby'], hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={multiline ? 'space-y-2 sm:col-span-2' : 'space-y-2'}>
      <label htmlFor={id} className="text-sm leading-none font-medium">
        {label}
      </label>
      {multiline ? (
        <Textarea
          id={id}
          name={props.name}
          rows={rows ?? 3}
          maxLength={props.maxLength}
          defaultValue={props.defaultValue}
          aria-invalid={props['aria-invalid']}
          aria-describedby={describedBy}
        />
      ) : (
        <Input id={id} className={className} {...props} aria-describedby={describedBy} />
      )}
      {hint ? (
        <p id={`${id}-hint`} className={warn ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'}>
          {hint}
        </p>
      ) : null}
    </div>
  )
}

/** A limit: a whole number, or blank when blank means something (unlimited, no minimum…). */
function Limit({ limit, stored, ...props }: { limit: LimitField; stored: number | null } & Omit<TextProps, 'label'>) {
  return (
    <Text
      label={limit.label}
      inputMode="numeric"
      defaultValue={stored ?? ''}
      hint={limit.blank ? `Blank: ${limit.blank}.` : 'Required.'}
      {...props}
    />
  )
}

function Check({ label, name, defaultChecked }: { label: string; name: string; defaultChecked: boolean }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" name={name} defaultChecked={defaultChecked} className="size-4 accent-primary" />
      {label}
    </label>
  )
}
