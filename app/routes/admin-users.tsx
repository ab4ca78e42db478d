import { format } from 'date-fns'
import { useEffect } from 'react'
import { History } from 'lucide-react'
import { Link, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-users'
import { Pagination } from '#app/components/pagination.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { adminResult } from '#app/features/admin/admin-result.server.ts'
import { ListToolbar } from '#app/features/admin/list-toolbar.tsx'
import { readListQuery } from '#app/features/admin/list-query.server.ts'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { useResultToast } from '#app/features/admin/use-result-toast.ts'
import { UsersTable } from '#app/features/admin/users/users-table.tsx'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import { requireAdminAction, requireAdminMember } from '#app/lib/guards.server.ts'
import { toast } from '#app/lib/toast.ts'
import { ValidationError } from '#common/errors.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'
import { adminEmailSchema, adminUserUpdateSchema } from '#common/users.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdminMember(context)
  const query = readListQuery(request)
  const loaded = await readForPage(
    context,
    () =>
      Promise.all([
        context.services.users.list({ page: query.page, limit: DEFAULT_PAGE_SIZE, search: query.search }),
        context.services.plans.list(),
      ]).then(
        async ([result, plans]) =>
          [result, plans, await context.services.runs.usageThisMonth(result.items.map((user) => user.id))] as const,
      ),
    'An error occurred while fetching users',
  )
  const [result, plans, usage] = loaded.ok ? loaded.value : [{ items: [], total: 0 }, [], {}]
  const when = (date: Date | null) => (date ? format(date, 'MMM d, yyyy') : 'Never')
  return {
    adminId: admin.id,
    error: query.error ?? (loaded.ok ? null : loaded.message),
    search: query.search,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(result.total / DEFAULT_PAGE_SIZE)),
    total: result.total,
    plans: plans.map((plan) => ({ slug: plan.slug, name: plan.name })),
    users: result.items.map((user) => ({
      id: user.id,
      email: user.email,
      name: user.profile.fullName ?? '',
      role: user.profile.role,
      plan: user.profile.subscriptionPlan,
      credits: user.profile.credits,
      runsThisMonth: (usage as Partial<Record<string, { runs: number }>>)[user.id]?.runs ?? 0,
      verified: user.emailVerified,
      lastLogin: when(user.lastSignInAt),
      created: when(user.createdAt),
    })),
  }
}

const ERRORS = {
  'update-plan': 'Error updating plan',
  'update-credits': 'Error updating credits',
  'edit-user': 'Error updating user',
  'delete-user': 'Error deleting user',
  'send-email': 'Error sending email',
} as const

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireAdminAction(context)
  const form = Object.fromEntries(await request.formData())
  const intent = String(form.intent) as keyof typeof ERRORS
  const userId = String(form.userId ?? '').slice(0, 100)
  const { userAdmin } = context.services
  switch (intent) {
    case 'update-plan':
      return adminResult(intent, () => userAdmin.update(actor, userId, parseInput(adminUserUpdateSchema, { plan: form.plan })), {
        success: { title: 'Plan updated' },
        error: ERRORS[intent],
      })
    case 'update-credits':
      return adminResult(intent, () => userAdmin.update(actor, userId, parseInput(adminUserUpdateSchema, { credits: form.credits })), {
        success: { title: 'Credits updated' },
        error: ERRORS[intent],
      })
    case 'edit-user':
      return adminResult(
        intent,
        () =>
          userAdmin.update(
            actor,
            userId,
            parseInput(adminUserUpdateSchema, {
              fullName: form.fullName || undefined,
              role: form.role,
              plan: form.plan,
              credits: form.credits,
            }),
          ),
        { success: { title: 'User updated' }, error: ERRORS[intent] },
      )
    case 'delete-user':
      return adminResult(intent, () => userAdmin.remove(actor, userId), { success: { title: 'User deleted' }, error: ERRORS[intent] })
    case 'send-email':
      return adminResult(intent, () => userAdmin.sendEmail(actor, userId, parseInput(adminEmailSchema, form)), {
        success: { title: 'Email sent' },
        error: ERRORS[intent],
      })
    default:
      return adminResult('unknown', () => Promise.reject(new ValidationError('Unknown action')), { success: { title: '' }, error: 'Error' })
  }
}

export default function AdminUsersTab() {
  const { users, plans, page, pageCount, total, search, error, adminId } = useLoaderData<typeof loader>()
  useResultToast(useActionData<typeof action>())
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
