import { useState, type ReactElement } from 'react'
import { useFetcher } from 'react-router'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '#app/components/ui/dialog.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { PHONE_EXAMPLE } from '#common/phone.ts'
import type { PlanOption, UserRow } from './users-table.tsx'
import { DialogFormFooter } from './dialog-form-footer.tsx'

/** Edit User: name, phone, role, plan and credits in one save. */
export function EditUserDialog({
  user,
  plans,
  isSelf,
  trigger,
}: {
  user: UserRow
  plans: PlanOption[]
  isSelf: boolean
  trigger: ReactElement
}) {
  const [open, setOpen] = useState(false)
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data, { success: () => setOpen(false) })
  const id = (field: string) => `edit-${user.id}-${field}`
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription>{user.email}</DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="edit-user" />
          <input type="hidden" name="userId" value={user.id} />
          <div className="space-y-2">
            <Label htmlFor={id('name')}>Full Name</Label>
            <Input id={id('name')} name="fullName" defaultValue={user.name} minLength={2} maxLength={100} />
          </div>
          <div className="space-y-2">
            <Label htmlFor={id('phone')}>Phone Number</Label>
            <Input
              id={id('phone')}
              name="phone"
              type="tel"
              defaultValue={user.phone ?? ''}
              placeholder={PHONE_EXAMPLE}
              maxLength={40}
              aria-describedby={id('phone-help')}
            />
            <p id={id('phone-help')} className="text-xs text-muted-foreground">
              Optional. International format, with + and the country code; leave it empty to remove it.
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-3">
            <div className="space-y-2">
              <Label htmlFor={id('role')}>Role</Label>
              <Select id={id('role')} name="role" defaultValue={user.role} disabled={isSelf}>
                <option value="user">User</option>
                <option value="admin">Admin</option>
              </Select>
              {/* A disabled select is not sent: an admin cannot change their own role here. */}
              {isSelf ? <input type="hidden" name="role" value={user.role} /> : null}
            </div>
            <div className="space-y-2">
              <Label htmlFor={id('plan')}>Plan</Label>
              <Select id={id('plan')} name="plan" defaultValue={user.plan}>
                {plans.map((plan) => (
                  <option key={plan.slug} value={plan.slug}>
                    {plan.name}
                  </option>
                ))}
              </Select>
            </div>
            <div className="space-y-2">
              <Label htmlFor={id('credits')}>Credits</Label>
              <Input id={id('credits')} name="credits" type="number" min={0} step={1} defaultValue={user.credits} required />
            </div>
          </div>
          <DialogFormFooter onCancel={() => setOpen(false)} busy={fetcher.state !== 'idle'} label="Save Changes" busyLabel="Saving..." />
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  )
}
