import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { ADMIN_REASON_MAX_LENGTH } from '#common/suspension.ts'

/** What the server said was wrong with the reason (the last answer of the dialog's form), or null. */
export const reasonRefusal = (answer: ActionResult | undefined): string | null =>
  answer?.ok === false && answer.field === 'reason' ? (answer.error.description ?? null) : null

/** The admin's reason for an action on a member (required, at most 500 characters, kept in the audit log). */
export function ReasonField({ id, refused }: { id: string; refused: string | null }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>Reason</Label>
      <Textarea
        id={id}
        name="reason"
        rows={3}
        required
        maxLength={ADMIN_REASON_MAX_LENGTH}
        aria-invalid={refused ? true : undefined}
        aria-describedby={refused ? `${id}-error` : undefined}
      />
      {refused ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {refused}
        </p>
      ) : null}
    </div>
  )
}
