import { MailWarning } from 'lucide-react'
import { Form, useLocation, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

export interface VerificationBannerProps {
  email: string
  /** The Free plan's cloud runs a month, which an unverified account gets (null: no limit). */
  freeRuns: number | null
  /** What the last "Resend" did (sent, or why not), shown here so it reads without JavaScript too. */
  notice: { ok: boolean; text: string } | null
}

/**
 * On every member page until the account's address is verified (issue 27, item 12): what waits
 * for it, and "Resend", a plain form post to /verify-email/resend that comes back to this page.
 */
export function VerificationBanner({ email, freeRuns, notice }: VerificationBannerProps) {
  const location = useLocation()
  const navigation = useNavigation()
  const sending = navigation.state === 'submitting' && navigation.formAction === '/verify-email/resend'
  const runs = freeRuns === null ? '' : `, or run more than ${freeRuns} automation${freeRuns === 1 ? '' : 's'} a month in the cloud`
  return (
    <section
      aria-labelledby="verification-banner-title"
      className="mb-6 flex flex-col gap-3 rounded-lg border border-primary/40 bg-accent/40 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-2 text-sm">
        <MailWarning className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
        <div className="space-y-1">
          <p id="verification-banner-title">
            Please verify <strong>{email}</strong>: follow the link we e-mailed you.
          </p>
          <p className="text-muted-foreground">Until then you cannot invite people, add webhooks or trigger URLs, buy a plan{runs}.</p>
          {notice ? (
            <p role={notice.ok ? 'status' : 'alert'} className={notice.ok ? 'font-medium' : 'font-medium text-destructive'}>
              {notice.text}
            </p>
          ) : null}
        </div>
      </div>
      <Form method="post" action="/verify-email/resend" className="shrink-0">
        <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
        <Button type="submit" variant="outline" size="sm" disabled={sending}>
          {sending ? 'Sending...' : 'Resend'}
        </Button>
      </Form>
    </section>
  )
}
