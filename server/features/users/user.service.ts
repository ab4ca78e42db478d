import { and, count, desc, eq, ilike, inArray, isNull, max, or, sql, type SQL } from 'drizzle-orm'
import type { Page, PaginationQuery } from '#common/pagination.ts'
import { pageWithTotal, TOTAL_ROWS } from '#server/db/page-with-total.ts'
import type { Role } from '#common/auth.ts'
import type { Db } from '#server/db/client.ts'
import { containsPattern } from '#server/db/like-pattern.ts'
import { passkeys, profiles, sessions, users, workspaces } from '#server/db/schema/index.ts'
import { profileColumns } from '#server/db/profile-columns.ts'
import type { Profile } from '#server/features/profiles/profile.service.ts'

export interface UserListItem {
  id: string
  email: string
  emailVerified: boolean
  createdAt: Date
  lastSignInAt: Date | null
  /** Two-factor sign-in is on, and how many passkeys the account has (docs/decisions/023). */
  twoFactorEnabled: boolean
  passkeyCount: number
  /** Since when and why an admin suspended the account (docs/decisions/062); null when it is not. */
  suspension: { at: Date; reason: string } | null
  /** When the member's own deletion erases the account (docs/decisions/065); null when none waits. */
  erasesAt: Date | null
  profile: Profile
}

export interface UserListQuery extends PaginationQuery {
  role?: Role
  search?: string
}

export function createUserService(db: Db) {
  const lastSignIn = db
    .select({ userId: sessions.userId, at: max(sessions.createdAt).as('last_sign_in_at') })
    .from(sessions)
    // An admin viewing as the member is not the member signing in (docs/decisions/064).
    .where(isNull(sessions.impersonatedBy))
    .groupBy(sessions.userId)
    .as('last_sign_in')
  const passkeyCount = sql<number>`(select count(*)::int from ${passkeys} p where p.user_id = ${users.id})`

  function filters(query: { role?: Role; search?: string }): SQL | undefined {
    const conditions: SQL[] = []
    if (query.role) conditions.push(eq(profiles.role, query.role))
    if (query.search) {
      const pattern = containsPattern(query.search)
      const match = or(ilike(users.email, pattern), ilike(profiles.fullName, pattern))
      if (match) conditions.push(match)
    }
    return conditions.length ? and(...conditions) : undefined
  }

  return {
    async list(query: UserListQuery): Promise<Page<UserListItem>> {
      const where = filters(query)
      const rows = await db
        .select({ user: users, profile: profileColumns, lastSignInAt: lastSignIn.at, passkeyCount, ...TOTAL_ROWS })
        .from(users)
        .innerJoin(profiles, eq(profiles.id, users.id))
        .innerJoin(workspaces, eq(workspaces.id, users.id))
        .leftJoin(lastSignIn, eq(lastSignIn.userId, users.id))
        .where(where)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
      const countAll = async () =>
        (await db.select({ total: count() }).from(users).innerJoin(profiles, eq(profiles.id, users.id)).where(where))[0]?.total ?? 0
      return pageWithTotal(rows, query, countAll, toListItem)
    },

    async get(id: string): Promise<UserListItem | null> {
      const [row] = await db
        .select({ user: users, profile: profileColumns, lastSignInAt: lastSignIn.at, passkeyCount })
        .from(users)
        .innerJoin(profiles, eq(profiles.id, users.id))
        .innerJoin(workspaces, eq(workspaces.id, users.id))
        .leftJoin(lastSignIn, eq(lastSignIn.userId, users.id))
        .where(eq(users.id, id))
      return row ? toListItem(row) : null
    },

    /** Whether an admin has suspended the account (docs/decisions/062); false for an unknown id. */
    async isSuspended(id: string): Promise<boolean> {
      const [row] = await db.select({ suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, id))
      return Boolean(row?.suspendedAt)
    },

    /** The id of the account with this e-mail address (any case), or null. */
    async idByEmail(email: string): Promise<string | null> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
      return row?.id ?? null
    },

    /** The e-mail address of each of these accounts (unknown ids are absent), in one query. */
    async emailsOf(ids: string[]): Promise<Record<string, string>> {
      if (ids.length === 0) return {}
      const rows = await db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(inArray(users.id, [...new Set(ids)]))
      return Object.fromEntries(rows.map((row) => [row.id, row.email]))
    },
  }
}

function toListItem(row: {
  user: typeof users.$inferSelect
  profile: Profile
  lastSignInAt: Date | string | null
  passkeyCount: number
}): UserListItem {
  return {
    id: row.user.id,
    email: row.user.email,
    emailVerified: row.user.emailVerified,
    createdAt: row.user.createdAt,
    lastSignInAt: row.lastSignInAt ? new Date(row.lastSignInAt) : null,
    twoFactorEnabled: row.user.twoFactorEnabled,
    passkeyCount: Number(row.passkeyCount),
    suspension: row.user.suspendedAt ? { at: row.user.suspendedAt, reason: row.user.suspensionReason ?? '' } : null,
    erasesAt: row.user.eraseAfter,
    profile: row.profile,
  }
}

export type UserService = ReturnType<typeof createUserService>
