import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import type { Route } from './+types/confirm-email'
import { CenteredCard } from '#app/components/layout/centered-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { flashHeader } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

// The link sent to a new e-mail address. Opening it only shows a button: mail scanners that
// follow links must not change anyone's address; the person confirms with a POST.
export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get('token') ?? '' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = String((await request.formData()).get('token') ?? '').slice(0, 200)
  const result = token ? await context.services.account.confirmEmailChange(token) : 'invalid'
  if (result === 'invalid') return data({ failed: true }, { status: 400 })
  const flash = await flashHeader({
    type: 'success',
    title: 'E-mail address changed',
    description: 'Use your new address to sign in from now on.',
  })
  return redirect(context.user ? '/settings' : '/auth', { headers: withCookies([flash]) })
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta = privatePageMeta('Confirm your new e-mail')

export default function ConfirmEmailPage() {
  const { token } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()?.failed
  const busy = useNavigation().state === 'submitting'
  if (failed || !token) {
    return (
      <CenteredCard
        title="This link does not work"
        description="It has expired, was already used, or the address is taken. Ask for a new one in Settings."
      >
        <Button asChild className="w-full">
          <Link to="/settings">Open Settings</Link>
        </Button>
      </CenteredCard>
    )
  }
  return (
    <CenteredCard title="Confirm your new e-mail address" description="Your Aether account will use this address from now on.">
      <Form method="post">
        <input type="hidden" name="token" value={token} />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Please wait' : 'Confirm Change'}
        </Button>
      </Form>
    </CenteredCard>
  )
}
