import { FieldError } from '#app/components/forms/field-error.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'

/**
 * The secret's current value, asked again where only someone who knows it may act: adding a site,
 * confirming sites set from the automations (docs/decisions/039, amended). Never filled in by the page.
 */
export function CurrentValueField({
  id,
  secretName,
  hint,
  error,
  required = false,
}: {
  id: string
  secretName: string
  hint: string
  error: string | null
  required?: boolean
}) {
  return (
    <div className="space-y-1.5 sm:col-span-2">
      <Label htmlFor={id}>Current value of {secretName}</Label>
      <Input
        id={id}
        name="value"
        type="password"
        required={required}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {hint}
      </p>
      <FieldError id={`${id}-error`} errors={error ? [error] : undefined} />
    </div>
  )
}
