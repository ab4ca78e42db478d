import { Fingerprint, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Form, useRevalidator } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { toast } from '#app/lib/toast.ts'
import { addPasskey } from './passkey-client.ts'

export interface PasskeyItem {
  id: string
  name: string
  createdLabel: string
  synced: boolean
}

/**
 * 'Passkeys' (docs/decisions/023): sign in with the device's lock (fingerprint, face, PIN) instead
 * of a password and a code. Adding one asks for the password, then the browser makes the passkey
 * (WebAuthn, so JavaScript is needed); deleting one is a plain form.
 */
export function PasskeysCard({ passkeys, error }: { passkeys: PasskeyItem[]; error: string | null }) {
  const revalidator = useRevalidator()
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const fields = new FormData(form)
    setBusy(true)
    setProblem(null)
    const refused = await addPasskey(String(fields.get('name') ?? '').trim(), String(fields.get('password') ?? ''))
    setBusy(false)
    if (refused) {
      setProblem(refused)
      toast.error('Error adding passkey', { description: refused })
      return
    }
    form.reset()
    toast.success('Passkey added', { description: 'You can sign in with it on this device.' })
    await revalidator.revalidate()
  }

  return (
    <Card id="passkeys" className="scroll-mt-20">
      <CardHeader>
        <CardTitle level={2}>Passkeys</CardTitle>
        <CardDescription>
          Sign in with your device&apos;s fingerprint, face or PIN instead of a password. A passkey counts as both steps of two-factor
          sign-in.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <Form method="post" className="space-y-3" onSubmit={(event) => void add(event)}>
          <input type="hidden" name="intent" value="add-passkey" />
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1">
              <Label htmlFor="passkey-name">Passkey name</Label>
              <Input id="passkey-name" name="name" required maxLength={60} placeholder="e.g. My laptop" autoComplete="off" />
            </div>
            <div className="space-y-1">
              <Label htmlFor="passkey-password">Password</Label>
              <Input id="passkey-password" name="password" type="password" required autoComplete="current-password" />
            </div>
          </div>
          <FieldError id="passkey-error" errors={problem || error ? [problem ?? error ?? ''] : undefined} />
          <Button type="submit" disabled={busy}>
            <Fingerprint aria-hidden="true" />
            {busy ? 'Waiting for your device...' : 'Add passkey'}
          </Button>
        </Form>
        {passkeys.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have no passkeys yet.</p>
        ) : (
          <ul aria-label="Your passkeys" className="divide-y rounded-md border">
            {passkeys.map((passkey) => (
              <li key={passkey.id} className="flex items-center justify-between gap-4 p-3">
                <div className="min-w-0">
                  <p className="truncate font-medium">{passkey.name}</p>
                  <p className="text-xs text-muted-foreground">
                    Added {passkey.createdLabel}
                    {passkey.synced ? ' · synced across your devices' : ''}
                  </p>
                </div>
                <ConfirmAction
                  label={
                    <>
                      <Trash2 aria-hidden="true" />
                      Delete
                    </>
                  }
                  triggerProps={{ variant: 'outline', size: 'sm', 'aria-label': `Delete passkey ${passkey.name}` }}
                  title={`Delete the passkey "${passkey.name}"?`}
                  description="It no longer signs you in. Remove it from your device's password manager too."
                  confirmLabel="Delete Passkey"
                  fields={{ intent: 'delete-passkey', id: passkey.id }}
                  destructive
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
