import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/verify-email'
import { CenteredCard } from '#app/components/layout/centered-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { privatePageMeta } from '#app/lib/seo.ts'

// The link of the sign-up e-mail. Verifying is harmless to repeat, so the link itself does it.
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  const result = token ? await context.services.account.verifyEmail(token) : 'invalid'
  return { verified: result === 'done', signedIn: Boolean(context.user) }
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta = privatePageMeta('Verify your e-mail')

export default function VerifyEmailPage() {
  const { verified, signedIn } = useLoaderData<typeof loader>()
  return (
    <CenteredCard
      title={verified ? 'E-mail address verified' : 'This link does not work'}
      description={
        verified
          ? 'Thank you: your e-mail address is confirmed.'
          : 'It has expired or is incomplete. Sign in and press Resend in the banner at the top of the page for a new one.'
      }
    >
      <Button asChild className="w-full">
        <Link to={signedIn ? (verified ? '/dashboard' : '/settings') : '/auth'}>
          {signedIn ? (verified ? 'Go to Dashboard' : 'Open Settings') : 'Log In'}
        </Link>
      </Button>
    </CenteredCard>
  )
}
