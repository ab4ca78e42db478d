import { MAX_STEPS } from './automation-steps.ts'
import { targetSchema } from './targets.ts'
import { paginationQuerySchema } from './pagination.ts'
import { runInputsSchema } from './run-inputs.ts'
import { MAX_CSV_LENGTH, MAX_DATA_ROWS, MAX_XLSX_BASE64_LENGTH } from './data-rows.ts'
import { ROW_STATUSES } from './workflow-interpreter.ts'
import { scheduleFieldSchema } from './schedules.ts'
import { runStepSchema } from './run-steps.ts'
import { traceModeSchema } from './run-trace.ts'
import { z } from './zod.ts'

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const
export type RunStatus = (typeof RUN_STATUSES)[number]
/** How a run was started: by hand in the app, by the schedule, by a client app, by a trigger URL, or through the API with a key. */
export const RUN_TRIGGERS = ['manual', 'schedule', 'extension', 'desktop', 'url', 'api'] as const
export type RunTrigger = (typeof RUN_TRIGGERS)[number]
/** Statuses a run never leaves. */
export const FINISHED_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled']

/** What a cloud run costs (docs/decisions/012-automations-credits-and-runs.md). */
export const CLOUD_RUN_CREDITS = 1

/**
 * A sign-in block (docs/decisions/025): steps `from`..`to` (1-based, inclusive) sign in. Just before
 * step `from`, the run looks for `check`'s target: `present: 'signedOut'` means the target shows only
 * while signed out (a "Sign in" button), `'signedIn'` only while signed in (an account menu). A run
 * that finds itself signed in skips the block.
 */
export const signInBlockSchema = z
  .object({
    // Step 1 cannot sign in: the check needs a page, which a step before the block opens.
    from: z
      .number({ error: 'from must be a step number' })
      .int()
      .min(2, 'The sign-in block starts after a step that opens a page: from must be 2 or more.'),
    to: z.number({ error: 'to must be a step number' }).int().min(1, 'to must be a step number'),
    check: z.object({
      target: targetSchema,
      present: z.enum(['signedOut', 'signedIn'], { error: 'check.present must be signedOut or signedIn' }),
    }),
  })
  .refine((block) => block.to >= block.from, { error: 'The sign-in block must end at or after its first step.', path: ['to'] })
export type SignInBlock = z.infer<typeof signInBlockSchema>

/** The highest run limits an automation may name; the platform's own (RUN_TIME_LIMIT_MS, RUN_MAX_ACTIONS) may be lower and win. */
export const MAX_RUN_TIME_LIMIT_SECONDS = 3600
export const MAX_RUN_STEP_LIMIT = 100_000
const runLimit = (name: string, max: number) =>
  z
    .number({ error: `${name} must be a whole number, or null for the platform's limit` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(max, `${name} must be at most ${max.toLocaleString('en-US')}`)
    .nullable()

const automationFields = {
  name: z.string({ error: 'Name is required.' }).trim().min(1, 'Name is required.').max(100, 'Name must be at most 100 characters.'),
  description: z.string().trim().max(1000, 'Description must be at most 1000 characters.'),
  steps: z
    .array(z.unknown(), { error: 'Steps must be a list of actions.' })
    .max(MAX_STEPS, `An automation has at most ${MAX_STEPS} steps.`),
  /** When it runs by itself (common/schedules.ts, docs/decisions/036); the older cron string is read as custom cron in UTC. */
  schedule: scheduleFieldSchema,
  /** Whether the schedule fires: false pauses it (the schedule's `paused` says the same; docs/decisions/036). */
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  /** Whether a run may look for the element a broken step meant (docs/decisions/019). */
  selfRepair: z.boolean({ error: 'selfRepair must be true or false' }),
  /** Keep the browser session (cookies, storage) between cloud runs (docs/decisions/025). */
  keepSession: z.boolean({ error: 'keepSession must be true or false' }),
  signInBlock: signInBlockSchema.nullable(),
  /** When its cloud runs keep a Playwright trace (docs/decisions/060). */
  trace: traceModeSchema,
  /** A cloud run whose step is blocked by a CAPTCHA-like check asks a person (docs/decisions/059, amended). */
  askPersonOnCaptcha: z.boolean({ error: 'askPersonOnCaptcha must be true or false' }),
  // Limits of each run, lower than the platform's (docs/decisions/028); null: the platform's.
  runTimeLimitSeconds: runLimit('runTimeLimitSeconds', MAX_RUN_TIME_LIMIT_SECONDS),
  runStepLimit: runLimit('runStepLimit', MAX_RUN_STEP_LIMIT),
  /** The local runner its scheduled runs wait for (a device of kind runner in the workspace); null: the cloud. */
  deviceId: z.uuid('deviceId must be the id of a connected local runner').nullable(),
}

/** An automation as a form or the API sends it; `steps` are checked by parseSteps, step by step. */
export const automationInputSchema = z.object({
  ...automationFields,
  description: automationFields.description.default(''),
  schedule: automationFields.schedule.default(null),
  // Left out: not paused, unless the schedule says it is (the service settles the two).
  enabled: automationFields.enabled.optional(),
  selfRepair: automationFields.selfRepair.default(true),
  keepSession: automationFields.keepSession.default(false),
  signInBlock: automationFields.signInBlock.default(null),
  trace: automationFields.trace.default('off'),
  askPersonOnCaptcha: automationFields.askPersonOnCaptcha.default(false),
  runTimeLimitSeconds: automationFields.runTimeLimitSeconds.default(null),
  runStepLimit: automationFields.runStepLimit.default(null),
  deviceId: automationFields.deviceId.default(null),
})
export type AutomationData = z.output<typeof automationInputSchema>

/** A change: only the fields sent (no defaults, so nothing unsent is overwritten). */
export const automationUpdateSchema = z.object(automationFields).partial()
export type AutomationChanges = z.output<typeof automationUpdateSchema>

export const automationListQuerySchema = paginationQuerySchema

export const runListQuerySchema = paginationQuerySchema.extend({
  status: z.enum(RUN_STATUSES, { error: `status must be one of ${RUN_STATUSES.join(', ')}` }).optional(),
  automationId: z.uuid('automationId must be an automation id').optional(),
})

/** Starting a run: in our cloud (credits), or reported by the member's extension / desktop app. */
export const runStartSchema = z.object({
  where: z.enum(['cloud', 'client'], { error: 'where must be cloud or client' }).default('cloud'),
  trigger: z.enum(['manual', 'extension', 'desktop'], { error: 'trigger must be manual, extension or desktop' }).optional(),
  inputs: runInputsSchema.optional(),
  /**
   * The data a "for each row" block goes through (docs/decisions/046), one way of four: `rows`
   * (records of column → text), `csv` (a header line, then a line per row), `xlsx` (an Excel
   * workbook, base64: its first sheet, the first row naming the columns), or `rowsFromRun` (an
   * earlier run's extracted table, by its id).
   */
  rows: z.array(z.unknown()).max(MAX_DATA_ROWS, `rows: at most ${MAX_DATA_ROWS} rows`).optional(),
  csv: z.string({ error: 'csv must be text' }).max(MAX_CSV_LENGTH, `csv must be at most ${MAX_CSV_LENGTH} characters`).optional(),
  xlsx: z
    .string({ error: 'xlsx must be the workbook as base64 text' })
    .max(MAX_XLSX_BASE64_LENGTH, `xlsx must be at most ${MAX_XLSX_BASE64_LENGTH} characters of base64 (a workbook of 700 KB)`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'xlsx must be the workbook as base64 text')
    .optional(),
  rowsFromRun: z.uuid({ error: 'rowsFromRun must be a run id' }).optional(),
  /** Queue it for one of the caller's own connected local runners ("Run on …"): a client run, no credits. */
  deviceId: z.uuid({ error: 'must be the id of one of your local runners' }).optional(),
})

/**
 * Rows of data kept with an automation (docs/decisions/046), for the runs started without rows of
 * their own: given one way, as a run's start takes them, with a name to know them by.
 */
export const keptRowsInputSchema = runStartSchema.pick({ rows: true, csv: true, xlsx: true, rowsFromRun: true }).extend({
  name: z
    .string({ error: 'name must be text' })
    .trim()
    .min(1, 'name must not be empty')
    .max(200, 'name must be at most 200 characters')
    .optional(),
})

/** Resuming a run (docs/decisions/046): from the step it stopped at, or from this one. */
export const runResumeSchema = z.object({
  fromStep: z
    .number({ error: 'fromStep must be a number' })
    .int('fromStep must be a whole number')
    .min(1, 'fromStep counts from 1')
    .optional(),
})

/** Running a finished run again: in the cloud, or on the member's own runner it ran on. */
export const runAgainSchema = z.object({
  where: z.enum(['cloud', 'device'], { error: 'where must be cloud or device' }).default('cloud'),
})

const logLine = z.object({
  level: z.enum(['info', 'warn', 'error']).default('info'),
  message: z.string().trim().min(1, 'message is required').max(2000, 'message must be at most 2000 characters'),
})
const extractedRow = z.record(z.string().max(64), z.string().max(10_000).nullable())

/** A client's progress report for a run it executes. */
export const runProgressSchema = z.object({
  actionsPerformed: z.number().int().min(0).max(1_000_000).optional(),
  log: z.array(logLine).max(200, 'at most 200 log lines per report').optional(),
  extracted: z.array(extractedRow).max(1000, 'at most 1000 extracted rows per report').optional(),
  /** Steps as the client carried them out, for the run's timeline (docs/decisions/057). */
  steps: z.array(runStepSchema).max(200, 'at most 200 steps per report').optional(),
})

/** A client's last report: how the run ended. */
export const runFinishSchema = runProgressSchema.extend({
  status: z.enum(['succeeded', 'failed', 'cancelled'], { error: 'status must be succeeded, failed or cancelled' }),
  error: z.string().trim().max(2000).optional(),
  /** Rows a readData step read on the member's machine (docs/decisions/046), kept when the run started with none. */
  dataRows: z.array(z.unknown()).max(MAX_DATA_ROWS, `at most ${MAX_DATA_ROWS} data rows`).optional(),
  /** Each data row's outcome (docs/decisions/046), as many as the run has rows. */
  rowOutcomes: z
    .array(
      z.object({
        row: z.number().int().min(1),
        status: z.enum(ROW_STATUSES, { error: `status must be one of ${ROW_STATUSES.join(', ')}` }),
        error: z.string().trim().max(2000).optional(),
      }),
    )
    .max(MAX_DATA_ROWS, `at most ${MAX_DATA_ROWS} row outcomes`)
    .optional(),
})

/** The most log lines and extracted rows one run keeps (older log lines are dropped first). */
export const MAX_LOG_LINES = 1000
export const MAX_EXTRACTED_ROWS = 5000

/** A screenshot a client reports for a run it executes (POST /runs/{id}/screenshots, a PNG body): at most this large. */
export const CLIENT_SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024
/** The most screenshots one client run keeps. */
export const MAX_CLIENT_SCREENSHOTS = 200
/** The screenshot's step and caption, in the query (the body is the image). */
export const clientScreenshotQuerySchema = z.object({
  step: z.coerce
    .number({ error: 'step must be a step number' })
    .int('step must be a step number')
    .min(1, 'step must be a step number')
    .max(9999, 'step must be at most 9999'),
  name: z.string().trim().max(100, 'name must be at most 100 characters').optional(),
  /** A step's picture (a JPEG body, docs/decisions/057): its counter in the run, what its timeline entry names (after-<shot>.jpg). */
  shot: z.coerce
    .number({ error: 'shot must be a whole number' })
    .int('shot must be a whole number')
    .min(1, 'shot must be at least 1')
    .max(99_999, 'shot must be at most 99999')
    .optional(),
})
