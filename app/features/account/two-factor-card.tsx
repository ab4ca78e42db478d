import { Form, useNavigation } from 'react-router'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import type { TwoFactorAnswer } from './two-factor-actions.server.ts'
import type { TwoFactorIntent } from './two-factor-intents.ts'

export interface TwoFactorState {
  enabled: boolean
  pending: boolean
  recoveryCodesLeft: number
}

/**
 * 'Two-factor sign-in' (docs/decisions/023): turn it on with the password (a QR code and the secret
 * to type by hand, then a first code), see the recovery codes once, get new ones, turn it off with
 * the password or a code. Plain forms: all of it works without JavaScript.
 */
export function TwoFactorCard({ state, answer }: { state: TwoFactorState; answer?: TwoFactorAnswer }) {
  const errorFor = (intent: TwoFactorIntent) => (answer?.intent === intent ? answer.error : null)
  const setup = answer?.setup
  return (
    <Card id="two-factor" className="scroll-mt-20">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          Two-factor sign-in {state.enabled ? <Badge>On</Badge> : <Badge variant="secondary">Off</Badge>}
        </CardTitle>
        <CardDescription>
          After your password, signing in asks for a code from an authenticator app (Google Authenticator, 1Password, Authy…). A passkey
          counts as both steps.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {answer?.recoveryCodes ? <RecoveryCodes codes={answer.recoveryCodes} /> : null}
        {state.enabled ? (
          <>
            <p className="text-sm">
              Two-factor sign-in is on.{' '}
              {state.recoveryCodesLeft === 1 ? '1 recovery code is' : `${state.recoveryCodesLeft} recovery codes are`} left.
            </p>
            <PasswordForm
              intent="two-factor-recovery-codes"
              label="New recovery codes"
              hint="Your old recovery codes stop working."
              error={errorFor('two-factor-recovery-codes')}
            />
            <DisableForm error={errorFor('two-factor-disable')} />
          </>
        ) : setup || (answer?.intent === 'two-factor-confirm' && answer.error) ? (
          <ConfirmSetup setup={setup} error={errorFor('two-factor-confirm')} />
        ) : (
          <>
            {state.pending ? (
              <p className="text-sm text-muted-foreground">Your set-up was not finished. Start again to get a new QR code.</p>
            ) : null}
            <PasswordForm
              intent="two-factor-setup"
              label={state.pending ? 'Start again' : 'Turn on two-factor sign-in'}
              hint="Confirm it is you with your password."
              error={errorFor('two-factor-setup')}
            />
          </>
        )}
      </CardContent>
    </Card>
  )
}

function useBusy(intent: TwoFactorIntent) {
  const navigation = useNavigation()
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
}

function PasswordForm({ intent, label, hint, error }: { intent: TwoFactorIntent; label: string; hint: string; error: string | null }) {
  const busy = useBusy(intent)
  const id = `${intent}-password`
  return (
    <Form method="post" className="space-y-2">
      <input type="hidden" name="intent" value={intent} />
      <Label htmlFor={id}>Password</Label>
      <p className="text-xs text-muted-foreground">{hint}</p>
      <div className="flex gap-2">
        <Input id={id} name="password" type="password" autoComplete="current-password" required aria-describedby={`${id}-error`} />
        <Button type="submit" variant="outline" disabled={busy}>
          {busy ? 'Please wait' : label}
        </Button>
      </div>
      <FieldError id={`${id}-error`} errors={error ? [error] : undefined} />
    </Form>
  )
}

/** The QR code and the secret, then the first code. After a wrong code the QR code is not shown again (already scanned); starting again makes a new one. */
function ConfirmSetup({ setup, error }: { setup?: TwoFactorAnswer['setup']; error: string | null }) {
  const busy = useBusy('two-factor-confirm')
  const grouped = setup?.secret.match(/.{1,4}/g)?.join(' ') ?? ''
  return (
    <div className="space-y-4">
      {setup ? (
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <img src={setup.qrCode} alt="QR code to scan with your authenticator app" width={176} height={176} className="rounded border" />
          <div className="space-y-2 text-sm">
            <p>1. Scan the QR code with your authenticator app.</p>
            <p>Cannot scan it? Enter this key by hand (time-based, 6 digits):</p>
            <p>
              <code aria-label="Secret key" className="font-mono text-xs break-all">
                {grouped}
              </code>
            </p>
            <p>2. Enter the 6-digit code the app shows.</p>
          </div>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">
          Enter the newest code from your authenticator app, or start again from a new QR code.
        </p>
      )}
      <Form method="post" className="space-y-2">
        <input type="hidden" name="intent" value="two-factor-confirm" />
        <Label htmlFor="two-factor-code">Code from the app</Label>
        <div className="flex gap-2">
          <Input
            id="two-factor-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            maxLength={7}
            aria-describedby="two-factor-code-error"
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Checking...' : 'Confirm'}
          </Button>
        </div>
        <FieldError id="two-factor-code-error" errors={error ? [error] : undefined} />
      </Form>
    </div>
  )
}

function DisableForm({ error }: { error: string | null }) {
  const busy = useBusy('two-factor-disable')
  return (
    <Form method="post" className="space-y-2 border-t pt-4">
      <input type="hidden" name="intent" value="two-factor-disable" />
      <p className="text-sm font-medium">Turn off two-factor sign-in</p>
      <p className="text-xs text-muted-foreground">Enter your password, or a code from your authenticator app.</p>
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="space-y-1">
          <Label htmlFor="disable-password">Password</Label>
          <Input id="disable-password" name="password" type="password" autoComplete="current-password" />
        </div>
        <div className="space-y-1">
          <Label htmlFor="disable-code">Or code from the app</Label>
          <Input id="disable-code" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} />
        </div>
      </div>
      <FieldError id="disable-error" errors={error ? [error] : undefined} />
      <Button type="submit" variant="destructive" disabled={busy}>
        {busy ? 'Please wait' : 'Turn off two-factor sign-in'}
      </Button>
    </Form>
  )
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div role="status" className="space-y-2 rounded-md border border-primary/40 bg-primary/5 p-4">
      <p className="text-sm font-medium">Your recovery codes</p>
      <p className="text-sm text-muted-foreground">
        Save them somewhere safe now: you won&apos;t see them again. If you lose your phone, each code signs you in once.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  )
}
