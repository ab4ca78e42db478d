import { Form, Link, useNavigation } from 'react-router'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'

/**
 * The second step of a password sign-in (docs/decisions/023): the code from the authenticator app,
 * or one of the recovery codes. A plain form: it works before (and without) JavaScript.
 */
export function SecondFactorForm({ recovery, error }: { recovery: boolean; error: string | null }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'second-factor'
  const field = recovery ? 'recoveryCode' : 'code'
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">
        {recovery
          ? 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once.'
          : 'Open your authenticator app and enter the 6-digit code for Aether.'}
      </p>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="second-factor" />
        <div className="space-y-2">
          <Label htmlFor={field}>{recovery ? 'Recovery code' : 'Authentication code'}</Label>
          <Input
            id={field}
            name={field}
            required
            autoFocus
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            placeholder={recovery ? 'xxxxx-xxxxx' : '123456'}
            maxLength={recovery ? 32 : 7}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'second-factor-error' : undefined}
          />
          <FieldError id="second-factor-error" errors={error ? [error] : undefined} />
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Please wait' : 'Verify'}
        </Button>
      </Form>
      <p className="flex justify-between text-sm">
        <Link to={recovery ? '/auth?step=two-factor' : '/auth?step=two-factor&method=recovery'} className="text-primary hover:underline">
          {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
        </Link>
        <Link to="/auth" className="text-muted-foreground hover:underline">
          Start over
        </Link>
      </p>
    </div>
  )
}
