import { sql } from 'drizzle-orm'
import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

// The tables Better Auth needs (users, sessions, accounts, verifications, its rate-limit counters).
// Field names follow Better Auth's model; columns are snake_case through drizzle's casing option.

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}

export const users = pgTable(
  'users',
  {
    id: text().primaryKey(),
    name: text().notNull().default(''),
    email: text().notNull().unique(),
    emailVerified: boolean().notNull().default(false),
    image: text(),
    /** Better Auth's two-factor plugin: a password sign-in needs a code too (docs/decisions/023). */
    twoFactorEnabled: boolean().notNull().default(false),
    /**
     * Set while an admin has suspended the account (docs/decisions/062): no session, API key, device,
     * trigger URL or schedule of theirs works until it is cleared. The reason is the admin's, shown to admins.
     */
    suspendedAt: timestamp({ withTimezone: true }),
    suspensionReason: text(),
    /**
     * Set while the member's own deletion waits (docs/decisions/065): when they asked, and when the
     * account is erased. Signing in before then clears both; meanwhile nothing of theirs signs in or runs.
     */
    deletionRequestedAt: timestamp({ withTimezone: true }),
    eraseAfter: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    // Sign-ups a day (the admin's overview, docs/decisions/063).
    index().on(table.createdAt),
    // The erasure sweep's accounts.
    index('users_erase_after_idx')
      .on(table.eraseAfter)
      .where(sql`${table.eraseAfter} is not null`),
  ],
)

export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    token: text().notNull().unique(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ipAddress: text(),
    userAgent: text(),
    /**
     * Set on a session an admin opened to view the app as this member (docs/decisions/064): it is
     * read-only, never refreshed (expires_at never grows: a trigger keeps it), and not a sign-in of theirs.
     */
    impersonatedBy: text().references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (table) => [index().on(table.userId)],
)

export const accounts = pgTable(
  'accounts',
  {
    id: text().primaryKey(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    ...timestamps,
  },
  (table) => [index().on(table.userId)],
)

export const verifications = pgTable(
  'verifications',
  {
    id: text().primaryKey(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [index().on(table.identifier)],
)

export const authRateLimits = pgTable('auth_rate_limits', {
  id: text().primaryKey(),
  key: text().notNull().unique(),
  count: integer().notNull(),
  lastRequest: bigint({ mode: 'number' }).notNull(),
})
