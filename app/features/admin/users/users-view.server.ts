import { format } from 'date-fns'
import type { AppLoadContext } from 'react-router'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { ListQuery } from '../list-query.server.ts'

/** The Users tab: a page of users (searched), the plans to choose from and each user's runs this month. */
export async function loadUsersTab(context: AppLoadContext, admin: SessionUser, query: ListQuery) {
  const { users, plans, runs } = context.services
  const loaded = await readForPage(
    context,
    async () => {
      const [result, planList] = await Promise.all([
        users.list({ page: query.page, limit: DEFAULT_PAGE_SIZE, search: query.search }),
        plans.list(),
      ])
      const usage = await runs.usageThisMonth(result.items.map((user) => user.id))
      return { result, planList, usage }
    },
    'An error occurred while fetching users',
  )
  const { result, planList, usage } = loaded.ok ? loaded.value : { result: { items: [], total: 0 }, planList: [], usage: {} }
  const when = (date: Date | null) => (date ? format(date, 'MMM d, yyyy') : 'Never')
  return {
    adminId: admin.id,
    error: query.error ?? (loaded.ok ? null : loaded.message),
    search: query.search,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(result.total / DEFAULT_PAGE_SIZE)),
    total: result.total,
    plans: planList.map((plan) => ({ slug: plan.slug, name: plan.name })),
    users: result.items.map((user) => ({
      id: user.id,
      email: user.email,
      phone: user.profile.phone,
      name: user.profile.fullName ?? '',
      role: user.profile.role,
      plan: user.profile.subscriptionPlan,
      credits: user.profile.credits,
      runsThisMonth: (usage as Partial<Record<string, { runs: number }>>)[user.id]?.runs ?? 0,
      verified: user.emailVerified,
      twoFactor: user.twoFactorEnabled,
      passkeys: user.passkeyCount,
      lastLogin: when(user.lastSignInAt),
      created: when(user.createdAt),
      suspension: user.suspension ? { since: when(user.suspension.at), reason: user.suspension.reason } : null,
      deletionOn: user.erasesAt ? when(user.erasesAt) : null,
    })),
  }
}
