import { z } from './zod.ts'

/** The longest a run waits for a person, whatever the plan (a blank plan limit means this). */
export const MAX_PERSON_WAIT_MINUTES = 24 * 60

/** The spec's toast when the add-plan form has no name. */
export const MISSING_PLAN_NAME = { title: 'Missing plan name', description: 'Please provide a name for the new plan.' } as const

const lines = (max: number, each: number) =>
  z
    .union([z.array(z.string()), z.string()])
    .transform((value) => (Array.isArray(value) ? value : value.split(/\r?\n/)).map((line) => line.trim()).filter(Boolean))
    .pipe(z.array(z.string().max(each, `Each feature must be at most ${each} characters.`)).max(max, `At most ${max} features.`))

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null)

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && !value.trim())

/** A number the forms send as text. Blank is refused: z.coerce alone would save '' as 0. */
const requiredNumber = <T extends z.ZodType>(message: string, number: T) =>
  z
    .unknown()
    .refine((value) => !isBlank(value), { error: message, abort: true })
    .pipe(number)

/** The add-plan form's defaults also fill a field left blank. */
const blankAsDefault = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (isBlank(value) ? undefined : value), schema)

/** A limit of a plan: a whole number, or blank (or null) for unlimited (`blank` says what blank means). */
const limit = (name: string, min: number, max: number, blank = 'unlimited') =>
  z.preprocess(
    (value) => (isBlank(value) ? null : value),
    z.coerce
      .number({ error: `${name} must be a number, or blank for ${blank}.` })
      .int(`${name} must be a whole number.`)
      .min(min, `${name} must be at least ${min}, or blank for ${blank}.`)
      .max(max, `${name} must be at most ${max.toLocaleString('en-US')}, or blank for ${blank}.`)
      .nullable(),
  )

/** The largest position a plan may have in the lists of plans. */
export const MAX_PLAN_ORDER = 10_000

/** The longest shortest-interval a plan may set: a week, in minutes. */
export const MAX_SCHEDULE_MIN_MINUTES = 10_080

/** A subscription plan as the admin edits it (add-plan form and the editable table). */
const planFieldsSchema = z.object({
  name: z
    .string({ error: MISSING_PLAN_NAME.description })
    .trim()
    .min(1, MISSING_PLAN_NAME.description)
    .max(60, 'Name must be at most 60 characters.'),
  price: requiredNumber(
    'Price is required.',
    z.coerce
      .number({ error: 'Price must be a number.' })
      .min(0, 'Price cannot be negative.')
      .max(100_000, 'Price must be at most 100,000.'),
  ),
  creditsPerMonth: requiredNumber(
    'Credits are required.',
    z.coerce
      .number({ error: 'Credits must be a number.' })
      .int('Credits must be a whole number.')
      .min(0, 'Credits cannot be negative.')
      .max(10_000_000, 'Credits must be at most 10,000,000.'),
  ),
  description: z.string().trim().max(300, 'Description must be at most 300 characters.'),
  features: lines(20, 120),
  highlighted: z.boolean(),
  paddlePriceId: optionalText(200),
  // What the plan includes (docs/decisions/020), enforced by the services.
  monthlyRunLimit: limit('Runs per month', 0, 1_000_000),
  actionLimit: limit('Actions per automation', 1, 1_000_000),
  monthlyModelCalls: limit('Model calls per month', 0, 1_000_000),
  aiPlanning: z.boolean(),
  modelRepair: z.boolean(),
  suggestions: z.boolean(),
  // Team workspaces (docs/decisions/021): whether subscribers may create them, and how many people one holds.
  teams: z.boolean(),
  seats: requiredNumber(
    'Seats are required.',
    z.coerce
      .number({ error: 'Seats must be a number.' })
      .int('Seats must be a whole number.')
      .min(1, 'Seats must be at least 1.')
      .max(100_000, 'Seats must be at most 100,000.'),
  ),
  // The gallery's advanced templates (docs/decisions/022); the others are in every plan.
  advancedTemplates: z.boolean(),
  // Trigger URLs that start runs from outside (docs/decisions/027).
  triggerUrls: z.boolean(),
  // Outgoing webhook endpoints per workspace (docs/decisions/026); 0: not included.
  webhooks: requiredNumber(
    'Webhooks are required (0 for none).',
    z.coerce
      .number({ error: 'Webhooks must be a number.' })
      .int('Webhooks must be a whole number.')
      .min(0, 'Webhooks cannot be negative.')
      .max(1_000, 'Webhooks must be at most 1,000.'),
  ),
  // The credential vault's size per workspace (docs/decisions/025).
  vaultSecrets: limit('Vault secrets', 0, 100_000),
  // Cloud runs of one workspace that run at the same time; the rest wait in the queue (docs/decisions/029).
  cloudConcurrency: requiredNumber(
    'Cloud runs at once are required (at least 1).',
    z.coerce
      .number({ error: 'Cloud runs at once must be a number.' })
      .int('Cloud runs at once must be a whole number.')
      .min(1, 'Cloud runs at once must be at least 1.')
      .max(1_000, 'Cloud runs at once must be at most 1,000.'),
  ),
  // Connected devices (browser extensions, local runners) per workspace (docs/decisions/031).
  devices: limit('Devices', 0, 100_000),
  // The shortest time between two runs of a schedule, in minutes (docs/decisions/036).
  scheduleMinMinutes: limit('Shortest schedule interval', 1, MAX_SCHEDULE_MIN_MINUTES, 'no minimum'),
  // The most data rows one run goes through (docs/decisions/046).
  dataRowLimit: limit('Data rows per run', 1, 10_000, 'no limit'),
  // How many days a run's files (screenshots, step pictures, kept files) are kept (docs/decisions/057).
  runFilesDays: limit('Days run files are kept', 1, 3_650, 'kept forever'),
  // How long a run that asks a person waits for one, in minutes (docs/decisions/059).
  personWaitMinutes: limit('Minutes a run waits for a person', 1, MAX_PERSON_WAIT_MINUTES, `at most ${MAX_PERSON_WAIT_MINUTES} minutes`),
  // The member's own JavaScript in automations (script steps).
  scripts: z.boolean({ error: 'Scripts must be true or false.' }),
  // Where the plan stands in pricing, the Billing page and every list of plans: lower first (ties by price).
  sortOrder: requiredNumber(
    'Order is required.',
    z.coerce
      .number({ error: 'Order must be a number.' })
      .int('Order must be a whole number.')
      .min(0, 'Order cannot be negative.')
      .max(MAX_PLAN_ORDER, `Order must be at most ${MAX_PLAN_ORDER.toLocaleString('en-US')}.`),
  ),
})

/** The allowances of a plan the Subscriptions tab shows as checkboxes. */
export const PLAN_SWITCHES = [
  'highlighted',
  'aiPlanning',
  'modelRepair',
  'suggestions',
  'teams',
  'advancedTemplates',
  'triggerUrls',
  'scripts',
] as const

/** Add plan: name required; price and credits numeric, default 0. */
export const planCreateSchema = planFieldsSchema.extend({
  price: blankAsDefault(planFieldsSchema.shape.price.default(0)),
  creditsPerMonth: blankAsDefault(planFieldsSchema.shape.creditsPerMonth.default(0)),
  description: planFieldsSchema.shape.description.default(''),
  features: planFieldsSchema.shape.features.default([]),
  highlighted: planFieldsSchema.shape.highlighted.default(false),
  paddlePriceId: planFieldsSchema.shape.paddlePriceId.optional(),
  monthlyRunLimit: planFieldsSchema.shape.monthlyRunLimit.optional(),
  actionLimit: planFieldsSchema.shape.actionLimit.optional(),
  // Not sent: none; blank: unlimited, as when the plan is edited.
  monthlyModelCalls: planFieldsSchema.shape.monthlyModelCalls.optional().default(0),
  aiPlanning: planFieldsSchema.shape.aiPlanning.default(false),
  modelRepair: planFieldsSchema.shape.modelRepair.default(false),
  suggestions: planFieldsSchema.shape.suggestions.default(false),
  teams: planFieldsSchema.shape.teams.default(false),
  seats: blankAsDefault(planFieldsSchema.shape.seats.default(1)),
  advancedTemplates: planFieldsSchema.shape.advancedTemplates.default(false),
  triggerUrls: planFieldsSchema.shape.triggerUrls.default(false),
  webhooks: blankAsDefault(planFieldsSchema.shape.webhooks.default(0)),
  // Not sent: none; blank: unlimited.
  vaultSecrets: planFieldsSchema.shape.vaultSecrets.optional().default(0),
  cloudConcurrency: blankAsDefault(planFieldsSchema.shape.cloudConcurrency.default(1)),
  // Not sent: one, as Free; blank: unlimited.
  devices: planFieldsSchema.shape.devices.optional().default(1),
  // Not sent: 15 minutes, as Free; blank: no minimum.
  scheduleMinMinutes: planFieldsSchema.shape.scheduleMinMinutes.optional().default(15),
  // Not sent: 20 rows, as Free; blank: no limit.
  dataRowLimit: planFieldsSchema.shape.dataRowLimit.optional().default(20),
  scripts: planFieldsSchema.shape.scripts.default(false),
  // Not sent or blank: after every other plan.
  sortOrder: blankAsDefault(planFieldsSchema.shape.sortOrder.optional()),
})
export type PlanCreate = z.infer<typeof planCreateSchema>

/** One or more fields of a plan, saved by id (the plan's form, PATCH /api/plans/{id}): a cleared price or credits is refused. */
export const planUpdateSchema = planFieldsSchema.partial()
export type PlanUpdate = z.infer<typeof planUpdateSchema>
