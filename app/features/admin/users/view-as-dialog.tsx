import { useState, type ReactElement } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#app/components/ui/dialog.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { VIEW_AS_MINUTES, viewAsRefusal } from '#common/view-as.ts'
import { DialogFormFooter } from './dialog-form-footer.tsx'
import { ReasonField, reasonRefusal } from './reason-field.tsx'
import type { UserRow } from './users-table.tsx'

const WHAT_IT_DOES =
  `You see Aether as they do, read-only: nothing can be changed, and no e-mail or webhook is sent. It ends after ` +
  `${VIEW_AS_MINUTES} minutes or when you click End viewing, and you are back in your own account. The audit log ` +
  "records your reason, and the member's timeline shows it."

/**
 * View as member: what it does, and the admin's reason (required, kept in the audit log); on
 * confirming, the browser shows the member's app, read-only, for 30 minutes (docs/decisions/064).
 * An account the server would refuse (an admin, a suspended member, one whose deletion waits) gets
 * the same words here, before a reason is asked for. The table shows no button on one's own row.
 */
export function ViewAsDialog({ user, trigger }: { user: UserRow; trigger: ReactElement }) {
  const [open, setOpen] = useState(false)
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data)
  const notPossible = viewAsRefusal({
    email: user.email,
    isSelf: false,
    isAdmin: user.role === 'admin',
    suspended: user.suspension !== null,
    deletionPending: user.deletionOn !== null,
  })
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>View as {user.email}?</DialogTitle>
          <DialogDescription>{notPossible ?? WHAT_IT_DOES}</DialogDescription>
        </DialogHeader>
        {notPossible ? (
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Close
            </Button>
          </DialogFooter>
        ) : (
          <fetcher.Form method="post" className="space-y-4">
            <input type="hidden" name="intent" value="view-as" />
            <input type="hidden" name="userId" value={user.id} />
            <ReasonField id={`view-as-${user.id}-reason`} refused={reasonRefusal(fetcher.data)} />
            <DialogFormFooter onCancel={() => setOpen(false)} busy={fetcher.state !== 'idle'} label="View as Member" />
          </fetcher.Form>
        )}
      </DialogContent>
    </Dialog>
  )
}
