import { useState, type ReactNode } from 'react'
import { Form, useNavigation } from 'react-router'
import { Button, type ButtonProps } from '#app/components/ui/button.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#app/components/ui/dialog.tsx'

/**
 * A button that asks before it posts: a dialog with the consequences, then a form POST with the
 * given fields (so the action itself works without JavaScript too, posted from the dialog).
 */
export function ConfirmAction({
  label,
  title,
  description,
  confirmLabel,
  fields,
  action,
  variant,
  triggerProps,
  destructive = false,
}: {
  label: ReactNode
  title: string
  description: ReactNode
  confirmLabel: string
  fields: Record<string, string>
  action?: string
  variant?: ButtonProps['variant']
  /** The trigger button's props, instead of a full-width button of `variant`. */
  triggerProps?: ButtonProps & { 'aria-label'?: string }
  destructive?: boolean
}) {
  const [open, setOpen] = useState(false)
  const navigation = useNavigation()
  const busy =
    navigation.state === 'submitting' && Object.entries(fields).every(([name, value]) => navigation.formData?.get(name) === value)
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" {...(triggerProps ?? { variant, className: 'w-full' })}>
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Form method="post" action={action} onSubmit={() => setOpen(false)}>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={busy}>
              {busy ? 'Please wait' : confirmLabel}
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  )
}
