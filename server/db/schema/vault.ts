import { sql } from 'drizzle-orm'
import { check, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { VAULT_SECRET_KINDS, VAULT_USE_ROLES } from '#common/vault.ts'
import { users } from './auth.ts'
import { automations } from './automations.ts'
import { workspaces } from './workspaces.ts'

// The credential vault (docs/decisions/025): envelope encryption. Each workspace has one random
// data key, kept only wrapped (AES-256-GCM) under a key derived from the server's VAULT_KEY;
// secrets and saved browser sessions are sealed with the data key. Nothing here is readable
// without VAULT_KEY, and rotating VAULT_KEY re-wraps the data keys only.

/** A workspace's data key, wrapped under the vault key whose fingerprint it names. */
export const vaultKeys = pgTable('vault_keys', {
  workspaceId: text()
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  /** v1.<base64url of iv | tag | ciphertext> of the 32-byte data key. */
  wrappedKey: text().notNull(),
  /** Which VAULT_KEY wrapped it (a short HMAC of the derived key), so rotation knows what is left to do. */
  keyFingerprint: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  rotatedAt: timestamp({ withTimezone: true }),
})

/** One named secret: its value only sealed, never returned after saving. */
export const vaultSecrets = pgTable(
  'vault_secrets',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    kind: text({ enum: VAULT_SECRET_KINDS }).notNull(),
    /** The value sealed with the workspace's data key (bound to this row's id). */
    sealedValue: text().notNull(),
    /**
     * The sites it may be typed on (docs/decisions/039): normalised origins such as
     * 'https://app.example.com'. Empty: it cannot be used until someone names one.
     */
    origins: jsonb().$type<string[]>().notNull().default([]),
    /** The least workspace role whose automations may use it (docs/decisions/039). */
    useRole: text({ enum: VAULT_USE_ROLES }).notNull().default('member'),
    /**
     * When migration 0023 set the origins from the steps that used it: they work for
     * UNCONFIRMED_SITES_DAYS after it, and the vault page asks to confirm them until someone who
     * knows the value does (docs/decisions/039, amended).
     */
    originsFromStepsAt: timestamp({ withTimezone: true }),
    createdBy: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('vault_secrets_workspace_name_unique').on(table.workspaceId, table.name),
    check('vault_secrets_kind_check', sql`${table.kind} in ('username', 'password', 'totp', 'value')`),
    check('vault_secrets_use_role_check', sql`${table.useRole} in ('member', 'admin', 'owner')`),
    check('vault_secrets_origins_check', sql`jsonb_typeof(${table.origins}) = 'array'`),
  ],
)

/** An automation's kept browser state (Playwright storageState: cookies, local storage), sealed like a secret. */
export const automationSessions = pgTable('automation_sessions', {
  automationId: uuid()
    .primaryKey()
    .references(() => automations.id, { onDelete: 'cascade' }),
  workspaceId: text()
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  sealedState: text().notNull(),
  /** The run whose end saved it. */
  savedByRun: uuid(),
  savedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
