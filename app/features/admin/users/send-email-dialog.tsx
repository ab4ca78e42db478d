import { useState, type ReactElement } from 'react'
import { useFetcher } from 'react-router'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '#app/components/ui/dialog.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { UserRow } from './users-table.tsx'
import { DialogFormFooter } from './dialog-form-footer.tsx'

/** Send Email: written here, sent through our mailer (kept in the outbox); or the admin's own mail app. */
export function SendEmailDialog({ user, trigger }: { user: UserRow; trigger: ReactElement }) {
  const [open, setOpen] = useState(false)
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data, { success: () => setOpen(false) })
  const id = (field: string) => `email-${user.id}-${field}`
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Send Email</DialogTitle>
          <DialogDescription>
            To {user.email}.{' '}
            <a className="underline" href={`mailto:${user.email}`}>
              Open in your mail app instead
            </a>
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="send-email" />
          <input type="hidden" name="userId" value={user.id} />
          <div className="space-y-2">
            <Label htmlFor={id('subject')}>Subject</Label>
            <Input id={id('subject')} name="subject" required maxLength={200} />
          </div>
          <div className="space-y-2">
            <Label htmlFor={id('message')}>Message</Label>
            <Textarea id={id('message')} name="message" rows={6} required maxLength={5000} />
          </div>
          <DialogFormFooter onCancel={() => setOpen(false)} busy={fetcher.state !== 'idle'} label="Send" busyLabel="Sending..." />
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  )
}
