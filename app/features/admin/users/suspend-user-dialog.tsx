import { useState, type ReactElement } from 'react'
import { useFetcher } from 'react-router'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '#app/components/ui/dialog.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { ReasonField, reasonRefusal } from './reason-field.tsx'
import type { UserRow } from './users-table.tsx'
import { DialogFormFooter } from './dialog-form-footer.tsx'

/** Suspend: what it does, and the admin's reason (required, kept in the audit log); docs/decisions/062. */
export function SuspendUserDialog({ user, trigger }: { user: UserRow; trigger: ReactElement }) {
  const [open, setOpen] = useState(false)
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data, { success: () => setOpen(false) })
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Suspend {user.email}?</DialogTitle>
          <DialogDescription>
            At once they are signed out everywhere, their queued and running automations stop, and until you unsuspend them their API keys,
            connected devices, trigger URLs and schedules are refused and they cannot sign in. Nothing is deleted. The audit log records
            your reason.
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="suspend-user" />
          <input type="hidden" name="userId" value={user.id} />
          <ReasonField id={`suspend-${user.id}-reason`} refused={reasonRefusal(fetcher.data)} />
          <DialogFormFooter onCancel={() => setOpen(false)} busy={fetcher.state !== 'idle'} label="Suspend User" variant="destructive" />
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  )
}
