import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

// The tables of Better Auth's two-factor and passkey plugins (docs/decisions/023). Field names
// follow Better Auth's models (its Drizzle adapter maps them by these keys); columns are snake_case.

/**
 * An account's authenticator-app secret and recovery codes, both encrypted with the server secret
 * (Better Auth's symmetric encryption). `verified` turns true once a first code confirmed the set-up.
 */
export const twoFactors = pgTable('two_factors', {
  id: text().primaryKey(),
  userId: text()
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text().notNull(),
  backupCodes: text().notNull(),
  verified: boolean().notNull().default(true),
  /** Failed codes in a row, across sign-in attempts; at 10 the second step is locked for 15 minutes. */
  failedVerificationCount: integer().notNull().default(0),
  lockedUntil: timestamp({ withTimezone: true }),
  /**
   * The RFC 6238 time step (Unix time / 30 s) of the last code accepted, ours not Better Auth's: a
   * code of that step or an earlier one is refused, so a code works once (RFC 6238, section 5.2).
   */
  lastTotpStep: bigint({ mode: 'number' }),
})

/** A WebAuthn credential: its public key only (the private key never leaves the authenticator). */
export const passkeys = pgTable(
  'passkeys',
  {
    id: text().primaryKey(),
    name: text(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    publicKey: text().notNull(),
    credentialID: text().notNull().unique(),
    counter: bigint({ mode: 'number' }).notNull(),
    deviceType: text().notNull(),
    backedUp: boolean().notNull(),
    transports: text(),
    aaguid: text(),
    createdAt: timestamp({ withTimezone: true }).defaultNow(),
  },
  (table) => [index().on(table.userId)],
)
