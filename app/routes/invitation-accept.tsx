import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/invitation-accept'
import { CenteredCard } from '#app/components/layout/centered-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { rememberWorkspace } from '#app/features/workspaces/workspace-cookie.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireMember } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { WORKSPACE_ROLE_NAMES } from '#common/workspaces.ts'

// The link of an invitation e-mail. Opening it shows what it is; joining takes a click, signed in
// with the address it was sent to (the link works once).

const tokenOf = (request: Request) => (new URL(request.url).searchParams.get('token') ?? '').slice(0, 200)

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(request)
  const invitation = token ? await context.services.invitations.preview(token) : null
  return {
    invitation: invitation && { ...invitation, roleName: WORKSPACE_ROLE_NAMES[invitation.role] },
    signedInAs: context.user?.email ?? null,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const outcome = await attempt(() => context.services.invitations.accept(tokenOf(request), user))
  if (!outcome.ok) return data({ error: outcome.error.message }, { status: outcome.error.status })
  const flash = await flashHeader({
    type: 'success',
    title: 'Welcome to the team',
    description: 'You are now working in the workspace you joined.',
  })
  return redirect('/dashboard', { headers: withCookies([rememberWorkspace(outcome.value), flash]) })
}

export function headers() {
  return { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' }
}

export const meta = privatePageMeta('Invitation')

export default function InvitationAcceptPage() {
  const { invitation, signedInAs } = useLoaderData<typeof loader>()
  const error = useActionData<typeof action>()?.error
  if (!invitation || invitation.status !== 'pending') {
    const why = !invitation
      ? 'This link is incomplete or was never valid.'
      : invitation.status === 'accepted'
        ? 'It was already used.'
        : invitation.status === 'expired'
          ? 'It has expired: ask for a new invitation.'
          : 'It was withdrawn or replaced by a newer one.'
    return (
      <CenteredCard title="This invitation does not work" description={why}>
        <Button asChild className="w-full">
          <Link to={signedInAs ? '/dashboard' : '/auth'}>{signedInAs ? 'Go to Dashboard' : 'Log In'}</Link>
        </Button>
      </CenteredCard>
    )
  }
  const rightPerson = signedInAs?.toLowerCase() === invitation.email
  return (
    <CenteredCard
      title={`Join ${invitation.workspaceName}`}
      description={`${invitation.invitedBy ?? 'Someone'} invited ${invitation.email} to work in ${invitation.workspaceName} on Aether as ${invitation.roleName.toLowerCase()}.`}
    >
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      {rightPerson ? (
        <Form method="post">
          <Button type="submit" className="w-full">
            Accept invitation
          </Button>
        </Form>
      ) : (
        <div className="space-y-3 text-sm">
          <p>
            {signedInAs
              ? `You are signed in as ${signedInAs}. Sign out, then sign in or create an account with ${invitation.email}, and open this link again.`
              : `Sign in or create an account with ${invitation.email}, then open this link again.`}
          </p>
          <Button asChild className="w-full">
            <Link to="/auth">Log In or Sign Up</Link>
          </Button>
        </div>
      )}
    </CenteredCard>
  )
}
