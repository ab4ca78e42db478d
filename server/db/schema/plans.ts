import { sql } from 'drizzle-orm'
import { boolean, check, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

export const subscriptionPlans = pgTable(
  'subscription_plans',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    slug: text().notNull().unique(),
    price: numeric({ precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    creditsPerMonth: integer().notNull().default(0),
    description: text().notNull().default(''),
    features: jsonb().$type<string[]>().notNull().default([]),
    highlighted: boolean().notNull().default(false),
    /** The payment provider's price id (Paddle: pri_…); without one the plan cannot be bought. */
    paddlePriceId: text().unique(),
    /** Runs a member may start per calendar month (UTC); null is unlimited. */
    monthlyRunLimit: integer(),
    /** Actions (steps) one automation may hold; null is unlimited. */
    actionLimit: integer(),
    /** Model calls (planning, self-repair, phrasing suggestions) a member may make per calendar month (UTC); null is unlimited. */
    monthlyModelCalls: integer().default(0),
    /** Planning from a sentence with the AI model (the offline planner is in every plan). */
    aiPlanning: boolean().notNull().default(false),
    /** Self-repair of a run's broken step by asking the model (other ways of finding it are in every plan). */
    modelRepair: boolean().notNull().default(false),
    /** Optimisation suggestions for an automation, from its steps and run history. */
    suggestions: boolean().notNull().default(false),
    /** Whether a subscriber may create team workspaces (docs/decisions/021). */
    teams: boolean().notNull().default(false),
    /** How many people a team workspace on this plan may hold (invitations pending included). */
    seats: integer().notNull().default(1),
    /** Whether the plan may use the gallery's advanced templates (docs/decisions/022); the others are in every plan. */
    advancedTemplates: boolean().notNull().default(false),
    /** Whether automations may have a trigger URL that starts runs from outside (docs/decisions/027). */
    triggerUrls: boolean().notNull().default(false),
    /** How many outgoing webhook endpoints a workspace on this plan may keep; 0: webhooks are not included (docs/decisions/026). */
    webhooks: integer().notNull().default(0),
    /** How many secrets a workspace's credential vault may hold (docs/decisions/025); null is unlimited. */
    vaultSecrets: integer().default(0),
    /** How many cloud runs of one workspace on this plan run at the same time; the rest wait in the queue (docs/decisions/029). */
    cloudConcurrency: integer().notNull().default(1),
    /** How many connected devices (extensions, local runners) a workspace on this plan may keep; null is unlimited (docs/decisions/031). */
    devices: integer().default(1),
    /** The shortest time between two runs of a schedule, in minutes; null is no minimum (docs/decisions/036). */
    scheduleMinMinutes: integer().default(15),
    /** The most data rows one run goes through ("for each row", docs/decisions/046); null is no limit of the plan's. */
    dataRowLimit: integer().default(20),
    /** Whether automations may run the member's own JavaScript (script steps, docs/decisions/046). */
    scripts: boolean().notNull().default(false),
    /** How many days a run's files (screenshots, step pictures, kept files) are kept after it ends; null (existing plans too): kept (docs/decisions/057). */
    runFilesDays: integer(),
    /** How long a run that asks a person waits for one, in minutes; null: MAX_PERSON_WAIT_MINUTES (docs/decisions/059). */
    personWaitMinutes: integer().default(15),
    sortOrder: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('subscription_plans_price_check', sql`${table.price} >= 0`),
    check('subscription_plans_credits_check', sql`${table.creditsPerMonth} >= 0`),
    check(
      'subscription_plans_limits_check',
      sql`coalesce(${table.monthlyRunLimit}, 0) >= 0 and coalesce(${table.actionLimit}, 1) >= 1 and coalesce(${table.monthlyModelCalls}, 0) >= 0 and ${table.seats} >= 1 and ${table.webhooks} >= 0 and coalesce(${table.vaultSecrets}, 0) >= 0 and ${table.cloudConcurrency} >= 1 and coalesce(${table.devices}, 0) >= 0 and coalesce(${table.scheduleMinMinutes}, 1) >= 1 and coalesce(${table.dataRowLimit}, 1) >= 1 and coalesce(${table.runFilesDays}, 1) >= 1 and coalesce(${table.personWaitMinutes}, 1) >= 1`,
    ),
  ],
)
