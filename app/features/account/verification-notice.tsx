import { MailWarning } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

/** Shown until the account's address is verified, with a way to get a fresh link. */
export function VerificationNotice({ email }: { email: string }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'resend-verification'
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-primary/40 bg-accent/40 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="flex items-start gap-2 text-sm">
        <MailWarning className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
        <span>
          Please verify <strong>{email}</strong>: follow the link we e-mailed you.
        </span>
      </p>
      <Form method="post" action="/settings">
        <input type="hidden" name="intent" value="resend-verification" />
        <Button type="submit" variant="outline" size="sm" disabled={busy}>
          {busy ? 'Sending...' : 'Send a new link'}
        </Button>
      </Form>
    </div>
  )
}
