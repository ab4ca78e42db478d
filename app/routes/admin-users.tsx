import { useEffect } from 'react'
import { History } from 'lucide-react'
import { Link, redirect, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-users'
import { Pagination } from '#app/components/pagination.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { actionResult } from '#app/lib/action-result.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { ListToolbar } from '#app/features/admin/list-toolbar.tsx'
import { readListQuery } from '#app/features/admin/list-query.server.ts'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { UsersTable } from '#app/features/admin/users/users-table.tsx'
import { loadUsersTab } from '#app/features/admin/users/users-view.server.ts'
import { requireAdminAction, requireAdminMember } from '#app/lib/guards.server.ts'
import { toast } from '#app/lib/toast.ts'
import { ValidationError } from '#common/errors.ts'
import { adminEmailSchema, adminUserUpdateSchema } from '#common/users.ts'
import { suspendUserSchema } from '#common/suspension.ts'
import { viewAsSchema } from '#common/view-as.ts'

export function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdminMember(context)
  return loadUsersTab(context, admin, readListQuery(request))
}

const ERRORS = {
  'update-plan': 'Error updating plan',
  'update-credits': 'Error updating credits',
  'edit-user': 'Error updating user',
  'delete-user': 'Error deleting user',
  'send-email': 'Error sending email',
  'reset-two-factor': 'Error resetting two-factor sign-in',
  'sign-out-everywhere': 'Error signing out',
  'resend-verification': 'Error sending verification',
  'suspend-user': 'Error suspending user',
  'unsuspend-user': 'Error unsuspending user',
  'view-as': 'Could not view as this member',
} as const

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireAdminAction(context)
  const form = Object.fromEntries(await request.formData())
  const intent = String(form.intent) as keyof typeof ERRORS
  const userId = String(form.userId ?? '').slice(0, 100)
  const { userAdmin, userSuspensions, viewAs } = context.services
  switch (intent) {
    case 'update-plan':
      return actionResult(() => userAdmin.update(actor, userId, parseInput(adminUserUpdateSchema, { plan: form.plan })), {
        intent: intent,
        success: { title: 'Plan updated' },
        error: ERRORS[intent],
      })
    case 'update-credits':
      return actionResult(() => userAdmin.update(actor, userId, parseInput(adminUserUpdateSchema, { credits: form.credits })), {
        intent: intent,
        success: { title: 'Credits updated' },
        error: ERRORS[intent],
      })
    case 'edit-user':
      return actionResult(
        () =>
          userAdmin.update(
            actor,
            userId,
            parseInput(adminUserUpdateSchema, {
              fullName: form.fullName || undefined,
              role: form.role,
              plan: form.plan,
              credits: form.credits,
              phone: form.phone,
            }),
          ),
        { intent: intent, success: { title: 'User updated' }, error: ERRORS[intent] },
      )
    case 'delete-user':
      return actionResult(() => userAdmin.remove(actor, userId), {
        intent: intent,
        success: { title: 'User deleted' },
        error: ERRORS[intent],
      })
    case 'send-email':
      return actionResult(() => userAdmin.sendEmail(actor, userId, parseInput(adminEmailSchema, form)), {
        intent: intent,
        success: { title: 'Email sent' },
        error: ERRORS[intent],
      })
    case 'reset-two-factor':
      return actionResult(() => userAdmin.resetTwoFactor(actor, userId), {
        intent: intent,
        success: { title: 'Two-factor sign-in reset', description: 'Their password alone signs them in until they set it up again.' },
        error: ERRORS[intent],
      })
    case 'sign-out-everywhere':
      return actionResult(() => userAdmin.signOutEverywhere(actor, userId), {
        intent: intent,
        success: (ended) => ({
          title: 'Signed out everywhere',
          description: `${ended === 1 ? '1 session' : `${ended} sessions`} ended. Their API keys and devices still work.`,
        }),
        error: ERRORS[intent],
      })
    case 'resend-verification':
      return actionResult(() => userAdmin.resendVerification(actor, userId), {
        intent: intent,
        success: { title: 'Verification email sent' },
        error: ERRORS[intent],
      })
    case 'suspend-user':
      return actionResult(() => userSuspensions.suspend(actor, userId, parseInput(suspendUserSchema, form).reason), {
        intent: intent,
        success: ({ sessionsEnded, runsStopped }) => ({
          title: 'User suspended',
          description: `${sessionsEnded === 1 ? '1 session' : `${sessionsEnded} sessions`} ended, ${runsStopped === 1 ? '1 run' : `${runsStopped} runs`} stopped. Their keys, devices, trigger URLs and schedules are refused until you unsuspend them.`,
        }),
        error: ERRORS[intent],
      })
    case 'unsuspend-user':
      return actionResult(() => userSuspensions.unsuspend(actor, userId), {
        intent: intent,
        success: { title: 'User unsuspended', description: 'They can sign in again; their keys, devices and triggers work again.' },
        error: ERRORS[intent],
      })
    case 'view-as': {
      // Started, the browser is the member's (read-only) and leaves the admin area (docs/decisions/064).
      const sessionId = actor.signedInWith.kind === 'session' ? actor.signedInWith.sessionId : ''
      const started = await attempt(() =>
        viewAs.start({ id: actor.id, email: actor.email, sessionId }, userId, parseInput(viewAsSchema, form).reason),
      )
      if (started.ok) return redirect('/dashboard', { headers: withCookies(started.value.setCookies) })
      return actionResult(() => Promise.reject(started.error), { intent: intent, success: { title: '' }, error: ERRORS[intent] })
    }
    default:
      return actionResult(() => Promise.reject(new ValidationError('Unknown action')), {
        intent: 'unknown',
        success: { title: '' },
        error: 'Error',
      })
  }
}

export default function AdminUsersTab() {
  const { users, plans, page, pageCount, total, search, error, adminId } = useLoaderData<typeof loader>()
  useActionToast(useActionData<typeof action>())
  useEffect(() => {
    if (error) toast.error('Error fetching users', { description: error })
  }, [error])
  return (
    <section aria-label="Users Management" className="space-y-4">
      <ListToolbar placeholder="Search users..." search={search} label="users">
        <Button asChild variant="outline">
          <Link to="/admin/runs">
            <History aria-hidden="true" /> View all runs
          </Link>
        </Button>
      </ListToolbar>
      <p className="text-sm text-muted-foreground">{total === 1 ? '1 user' : `${total} users`}</p>
      <UsersTable users={users} plans={plans} adminId={adminId} />
      <Pagination
        page={page}
        pageCount={pageCount}
        href={(n) => `/admin?${new URLSearchParams({ ...(search ? { search } : {}), page: String(n) })}`}
        label="User pages"
      />
    </section>
  )
}
