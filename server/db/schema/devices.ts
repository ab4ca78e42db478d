import { sql } from 'drizzle-orm'
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { ApiKeyScope } from '#common/api-keys.ts'
import { DEVICE_KINDS } from '#common/devices.ts'
import { users } from './auth.ts'
import { workspaces } from './workspaces.ts'

/**
 * A member's connected browser extension or local runner in one workspace (docs/decisions/031):
 * it acts with a device token whose hash only is kept, with its member's role there and its scopes.
 */
export const devices = pgTable(
  'devices',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    kind: text({ enum: DEVICE_KINDS }).notNull(),
    /** What the device last said it runs (X-Aether-Client-Version, or its pairing request). */
    version: text().notNull(),
    /** SHA-256 of the device token, hex: a request's token is looked up by it. */
    tokenHash: text().notNull().unique(),
    /** What the token may do: the API key scopes (common/api-keys.ts), automations for every device so far. */
    scopes: text()
      .array()
      .$type<ApiKeyScope[]>()
      .notNull()
      .default(sql`'{automations}'::text[]`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** A hint, written at most once a minute per device. */
    lastSeenAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    /**
     * The public half of the key pair the device made when it was paired (common/device-seal.ts):
     * vault values reach it sealed to this key (docs/decisions/048). Null: paired before devices had keys.
     */
    publicKey: text(),
    /** When its member allowed it vault values (Settings -> Devices); null: it gets none. */
    vaultValuesAllowedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    check('devices_kind_check', sql`${table.kind} in ('extension', 'runner')`),
    index().on(table.workspaceId, table.revokedAt),
    index().on(table.userId, table.createdAt),
  ],
)

export const PAIRING_STATUSES = ['pending', 'approved', 'denied', 'completed'] as const

/**
 * A device's request to be connected (RFC 8628's device authorization): the member approves or
 * denies it by its user code, and the device, which holds the poll secret (only its hash is kept
 * here), collects its token once. An approved pairing not yet collected holds one of the
 * workspace's device places until it expires.
 */
export const devicePairings = pgTable(
  'device_pairings',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Eight letters of USER_CODE_ALPHABET, without the dash. */
    userCode: text().notNull().unique(),
    pollSecretHash: text().notNull(),
    name: text().notNull(),
    kind: text({ enum: DEVICE_KINDS }).notNull(),
    version: text().notNull(),
    status: text({ enum: PAIRING_STATUSES }).notNull().default('pending'),
    /**
     * The workspace the pairing belongs to, from when a member first opens its code (only its
     * members answer it); on approval, the workspace the device will act in.
     */
    workspaceId: text().references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Set when the member approves: as whom the device will act. */
    userId: text().references(() => users.id, { onDelete: 'cascade' }),
    /** Set when the device collected its token. */
    deviceId: uuid().references(() => devices.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    check('device_pairings_kind_check', sql`${table.kind} in ('extension', 'runner')`),
    check('device_pairings_status_check', sql`${table.status} in ('pending', 'approved', 'denied', 'completed')`),
    check('device_pairings_approved_check', sql`${table.status} in ('pending', 'denied') or ${table.workspaceId} is not null`),
    index().on(table.workspaceId, table.status),
    index().on(table.expiresAt),
  ],
)
