import { Plus } from 'lucide-react'
import { useRef } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'

/** Add a plan: name required ('Missing plan name'); price and credits numeric, default 0. */
export function AddPlanForm() {
  const fetcher = useFetcher<ActionResult>()
  const form = useRef<HTMLFormElement>(null)
  useActionToast(fetcher.data, { success: () => form.current?.reset() })
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Add Plan</CardTitle>
        <CardDescription>
          A new plan goes after the others (or at the order you give; lower comes first). A paid plan is offered on the pricing and billing
          pages once it has its Paddle price id. Everything else is in each plan's form: Edit on its card below.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form
          ref={form}
          method="post"
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-end"
          noValidate
        >
          <input type="hidden" name="intent" value="add-plan" />
          <div className="space-y-2">
            <Label htmlFor="plan-name">Plan Name</Label>
            <Input id="plan-name" name="name" maxLength={60} placeholder="Team" />
          </div>
          <div className="space-y-2">
            <Label htmlFor="plan-price">Price (USD per month)</Label>
            <Input id="plan-price" name="price" type="number" min={0} step="0.01" placeholder="0" />
          </div>
          <div className="space-y-2">
            <Label htmlFor="plan-credits">Credits per month</Label>
            <Input id="plan-credits" name="creditsPerMonth" type="number" min={0} step={1} placeholder="0" />
          </div>
          <div className="space-y-2">
            <Label htmlFor="plan-order">Order</Label>
            <Input id="plan-order" name="sortOrder" type="number" min={0} max={10000} step={1} placeholder="Last" />
          </div>
          <Button type="submit" disabled={fetcher.state !== 'idle'}>
            <Plus aria-hidden="true" /> Add Plan
          </Button>
        </fetcher.Form>
      </CardContent>
    </Card>
  )
}
