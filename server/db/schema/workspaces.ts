import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { WORKSPACE_ROLES, INVITABLE_ROLES } from '#common/workspaces.ts'
import { users } from './auth.ts'
import { subscriptionPlans } from './plans.ts'

/**
 * What automations, runs, keys, credits and the subscription belong to (docs/decisions/021).
 * A personal workspace shares its id with its member's account, so every row that belonged to a
 * member before workspaces existed belongs to their personal workspace by the same id.
 */
export const workspaces = pgTable(
  'workspaces',
  {
    id: text().primaryKey(),
    name: text().notNull(),
    kind: text({ enum: ['personal', 'team'] }).notNull(),
    /** The member a personal workspace belongs to (its id too); null for a team. */
    personalOwnerId: text()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A plan with workspaces cannot be deleted (RESTRICT), even by a delete racing an assignment. */
    planSlug: text()
      .notNull()
      .default('free')
      .references(() => subscriptionPlans.slug, { onDelete: 'restrict', onUpdate: 'cascade' }),
    credits: integer().notNull().default(0),
    /** Members must have two-factor sign-in on to work in this workspace. */
    requireTwoFactor: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('workspaces_credits_check', sql`${table.credits} >= 0`),
    check('workspaces_kind_check', sql`${table.kind} in ('personal', 'team')`),
    check(
      'workspaces_personal_check',
      sql`(${table.kind} = 'personal') = (${table.personalOwnerId} is not null) and (${table.personalOwnerId} is null or ${table.personalOwnerId} = ${table.id})`,
    ),
    index().on(table.planSlug),
  ],
)

/** Who works in a workspace, and as what. */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text({ enum: WORKSPACE_ROLES }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.userId] }),
    check('workspace_members_role_check', sql`${table.role} in ('owner', 'admin', 'member', 'viewer')`),
    index().on(table.userId),
  ],
)

/** An e-mailed invitation: a link that works once, until it expires; only its hash is kept. */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    role: text({ enum: INVITABLE_ROLES }).notNull(),
    tokenHash: text().notNull().unique(),
    invitedBy: text().references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedBy: text().references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('workspace_invitations_role_check', sql`${table.role} in ('admin', 'member', 'viewer')`),
    index().on(table.workspaceId, table.createdAt),
  ],
)
