import { Button, type ButtonProps } from '#app/components/ui/button.tsx'
import { DialogFooter } from '#app/components/ui/dialog.tsx'

/**
 * The buttons under a Users-table dialog's form: Cancel closes the dialog; the submit button says
 * `busyLabel` and waits while the form is sent (so a second click sends nothing twice).
 */
export function DialogFormFooter({
  onCancel,
  busy,
  label,
  busyLabel = 'Please wait',
  variant,
}: {
  onCancel: () => void
  busy: boolean
  label: string
  busyLabel?: string
  variant?: ButtonProps['variant']
}) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" variant={variant} disabled={busy}>
        {busy ? busyLabel : label}
      </Button>
    </DialogFooter>
  )
}
