import { redirect } from 'react-router'
import type { Route } from './+types/verify-email-resend'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader, type Flash } from '#app/lib/flash.server.ts'
import { requireMember } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { sameSitePath } from '#common/same-site-path.ts'

// POST /verify-email/resend: the verification banner's "Resend" on every member page (issue 27,
// item 12). A plain form post, so it works without JavaScript: it sends a new link (limited like
// any resend: account-limits.ts) and goes back to the page it came from, where the banner says
// what happened.

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const form = await request.formData()
  const back = sameSitePath(form.get('returnTo')) ?? '/dashboard'
  const outcome = await attempt(() => context.services.account.resendVerification(user))
  const flash: Flash = outcome.ok
    ? {
        type: 'success',
        title: 'Verification email sent',
        description: `We sent a new link to ${user.email}. It works for 24 hours.`,
        inline: true,
      }
    : // Already verified: the banner is gone, so a toast says it; any other refusal shows in the banner.
      { type: 'error', title: 'Error sending verification email', description: outcome.error.message, inline: outcome.error.status !== 409 }
  return redirect(back, { headers: withCookies([await flashHeader(flash)]) })
}

export function loader() {
  return redirect('/settings')
}
