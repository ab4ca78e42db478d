import type { RunWaiting } from '#common/person-help.ts'
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core'
import type { ApiKeyScope } from '#common/api-keys.ts'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { DataRow, RowOutcome } from '#common/workflow-interpreter.ts'
import type { Target, TargetAlternative } from '#common/targets.ts'
import type { RunStep } from '#common/run-steps.ts'
import { TRACE_MODES, type RunTrace, type TraceMode } from '#common/run-trace.ts'
import { RUN_STATUSES, RUN_TRIGGERS, type SignInBlock } from '#common/automations.ts'
import { SCHEDULE_KINDS, type ZonedSchedule } from '#common/schedules.ts'
import { users } from './auth.ts'
import { devices } from './devices.ts'
import { workspaces } from './workspaces.ts'

/** Who executes a run: our worker in headless Chromium, or the member's extension / desktop app. */
export const RUN_RUNNERS = ['cloud', 'client'] as const

/** A workspace's automation: named steps, run by hand or on a schedule. */
export const automations = pgTable(
  'automations',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Who created it; kept in the workspace when they leave or their account goes. */
    ownerId: text().references(() => users.id, { onDelete: 'set null' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    steps: jsonb().$type<AutomationStep[]>().notNull(),
    stepsVersion: integer().notNull().default(4),
    /** Whether a run may stand in another way of finding an element when its first one fails (docs/decisions/019). */
    selfRepair: boolean().notNull().default(true),
    /** Keep the browser's cookies and storage between cloud runs, sealed like a vault secret (docs/decisions/025). */
    keepSession: boolean().notNull().default(false),
    /** When its cloud runs keep a Playwright trace (docs/decisions/060). */
    trace: text({ enum: TRACE_MODES }).$type<TraceMode>().notNull().default('off'),
    /** Whether a cloud run blocked by a CAPTCHA-like check asks a person (docs/decisions/059, amended). */
    askPersonOnCaptcha: boolean().notNull().default(false),
    /** Steps that sign in, run only when a check finds the run signed out (docs/decisions/025). */
    signInBlock: jsonb().$type<SignInBlock | null>(),
    /** Limits the member set below the platform's for each run (docs/decisions/028); null: the platform's. */
    runTimeLimitSeconds: integer(),
    runStepLimit: integer(),
    /** Bumped by every saved change (an applied fix included), for the history of versions. */
    version: integer().notNull().default(1),
    /**
     * When it runs by itself (common/schedules.ts): a kind's fields and an IANA zone; null runs only
     * when started. Paused is `enabled` false (docs/decisions/036).
     */
    schedule: jsonb().$type<ZonedSchedule | null>(),
    /** The local runner its scheduled runs wait for (README "Local runner"); null: they run in the cloud. */
    deviceId: uuid().references(() => devices.id, { onDelete: 'set null' }),
    /**
     * The version its runner's owner let run on that runner (docs/decisions/032, amended): a save by
     * them approves the version it makes; anyone else's save leaves it behind, and the runner runs
     * nothing of it until they approve the current version. Null: not approved (or no runner).
     */
    deviceApprovedVersion: integer(),
    enabled: boolean().notNull().default(true),
    /** When the schedule next fires; the scheduler claims due rows and moves this on. */
    nextRunAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('automations_run_limits_check', sql`coalesce(${table.runTimeLimitSeconds}, 1) >= 1 and coalesce(${table.runStepLimit}, 1) >= 1`),
    check('automations_trace_check', sql`${table.trace} in (${sql.raw(TRACE_MODES.map((mode) => `'${mode}'`).join(', '))})`),
    check(
      'automations_schedule_check',
      sql`${table.schedule} is null or (coalesce(${table.schedule}->>'kind', '') in (${sql.raw(SCHEDULE_KINDS.map((kind) => `'${kind}'`).join(', '))}) and ${table.schedule}->>'timeZone' is not null)`,
    ),
    index().on(table.workspaceId, table.createdAt),
    index().on(table.nextRunAt),
  ],
)

/**
 * Rows of data kept with an automation (docs/decisions/046): what its "for each row" block goes
 * through when a run is started without rows of its own (a schedule, a trigger URL, Run in cloud
 * with nothing given). Apart from the automation, so lists of automations never carry them.
 */
export const automationDataRows = pgTable('automation_data_rows', {
  automationId: uuid()
    .primaryKey()
    .references(() => automations.id, { onDelete: 'cascade' }),
  /** Where they came from, as the member named it: a file's name, "Pasted rows", an earlier run. */
  name: text().notNull(),
  rows: jsonb().$type<DataRow[]>().notNull(),
  rowCount: integer().notNull(),
  columns: jsonb().$type<string[]>().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

/** Bytes as PostgreSQL keeps them (bytea), read and written as a Buffer. */
const bytes = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
})

/**
 * Files kept with an automation (docs/decisions/046): what its upload steps choose in a file
 * input when the run has no file of that name. In the database, so a copy, a deletion and a
 * backup take them along; MAX_AUTOMATION_FILES of MAX_AUTOMATION_FILE_BYTES at most.
 */
export const automationFiles = pgTable(
  'automation_files',
  {
    automationId: uuid()
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    /** The member's name for it, unique within the automation: what an upload step names. */
    name: text().notNull(),
    size: integer().notNull(),
    content: bytes().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.automationId, table.name] })],
)

export interface RunLogLine {
  at: string
  level: 'info' | 'warn' | 'error'
  message: string
}

/**
 * A step a run carried out with another way of finding its element than the automation's first
 * one (docs/decisions/019): what failed, what was used instead, how it was found, and the
 * screenshot taken then. "Apply fix" writes `used` into the automation.
 */
export interface RunRepair {
  step: number
  failed: TargetAlternative
  used: TargetAlternative
  /** Another way of the target ('alternative'), similar words on the page ('similar'), or the AI model ('model'). */
  how: 'alternative' | 'similar' | 'model'
  /** The whole target that worked, best way first: what "Apply fix" writes (older automations' repairs lack it). */
  target?: Target
  /** The screenshot file of that moment, when one was taken. */
  file?: string
  at: string
  /** Set when "Apply fix" wrote it into the automation: the version it made. */
  appliedInVersion?: number
}

/** A file a run kept (docs/decisions/046): the member's name for it, where it is stored, its size and step. */
export interface RunFile {
  name: string
  /** The stored file under DATA_DIR/runs/<run id>/ (file-<step>-<n>). */
  file: string
  size: number
  step: number
}

export interface RunScreenshot {
  name: string
  /** The stored file under DATA_DIR/runs/<run id>/. */
  file: string
  step: number
}

/** One execution of an automation, with what it did, found and cost. */
export const automationRuns = pgTable(
  'automation_runs',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Kept when the automation is deleted, so the history and the ledger still make sense. */
    automationId: uuid().references(() => automations.id, { onDelete: 'set null' }),
    automationName: text().notNull(),
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Who started it (the automation's creator for scheduled runs); null once their account is gone. */
    userId: text().references(() => users.id, { onDelete: 'set null' }),
    status: text({ enum: RUN_STATUSES }).notNull(),
    trigger: text({ enum: RUN_TRIGGERS }).notNull(),
    runner: text({ enum: RUN_RUNNERS }).notNull(),
    /**
     * The steps as they were when the run started, placeholders as written: the inputs are filled
     * in as each step runs, in the same pass as vault values (docs/decisions/039). Runs from before
     * hold their steps with the inputs already filled in, which fills the same.
     */
    steps: jsonb().$type<AutomationStep[]>().notNull(),
    /** The values given for the steps' `{{input.name}}` placeholders (docs/decisions/027): "Run again" reuses them. */
    inputs: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** The table a "for each row" block goes through, a row at a time (docs/decisions/046). */
    dataRows: jsonb().$type<DataRow[]>().notNull().default([]),
    /** Each data row's outcome (done, failed with the reason, skipped, not run), as the run reported it. */
    rowOutcomes: jsonb().$type<RowOutcome[]>().notNull().default([]),
    /** A resumed run (docs/decisions/046): the run it continues, the step it starts at and the page it opens first. */
    resumedFrom: uuid().references((): AnyPgColumn => automationRuns.id, { onDelete: 'set null' }),
    startStep: integer().notNull().default(1),
    resumeUrl: text(),
    /** The files the run kept (downloads, saved tables): offered as downloads on the run page, never shown inline. */
    files: jsonb().$type<RunFile[]>().notNull().default([]),
    /** Where a failed run stopped: the step and the page it was on, what "Resume" starts from. */
    stoppedAt: jsonb().$type<{ step: number; url: string | null } | null>(),
    actionsPerformed: integer().notNull().default(0),
    creditsCharged: integer().notNull().default(0),
    log: jsonb().$type<RunLogLine[]>().notNull().default([]),
    extracted: jsonb().$type<Record<string, string | null>[]>().notNull().default([]),
    screenshots: jsonb().$type<RunScreenshot[]>().notNull().default([]),
    repairs: jsonb().$type<RunRepair[]>().notNull().default([]),
    /** Every step as the run carried it out, with its picture (docs/decisions/057): the run page's timeline. */
    timeline: jsonb().$type<RunStep[]>().notNull().default([]),
    /** What the run's files take on disk (screenshots, step pictures, kept files), at most MAX_RUN_STORED_BYTES. */
    storedBytes: integer().notNull().default(0),
    /** When the run's files were removed after its plan's retention (the run and its log stay). */
    filesRemovedAt: timestamp({ withTimezone: true }),
    /** A cloud run waiting for a person (docs/decisions/059): what for, since and until when; null otherwise. */
    waiting: jsonb().$type<RunWaiting>(),
    /** The automation's self-repair setting when the run started (docs/decisions/019). */
    selfRepair: boolean().notNull().default(true),
    /** The automation's kept-session setting and sign-in block when the run started (docs/decisions/025). */
    keepSession: boolean().notNull().default(false),
    signInBlock: jsonb().$type<SignInBlock | null>(),
    /** The automation's trace setting when the run started, and what became of the trace (docs/decisions/060). */
    traceMode: text({ enum: TRACE_MODES }).$type<TraceMode>().notNull().default('off'),
    trace: jsonb().$type<RunTrace>(),
    /** The automation's setting when the run started: a CAPTCHA-like check asks a person (docs/decisions/059, amended). */
    askPersonOnCaptcha: boolean().notNull().default(false),
    /** The automation's run limits when the run started (docs/decisions/028); null: the platform's. */
    timeLimitSeconds: integer(),
    stepLimit: integer(),
    error: text(),
    /** Set when the credits were given back (a failure on our side). */
    refundedAt: timestamp({ withTimezone: true }),
    /** The worker holding a cloud run, and until when its claim holds without a heartbeat. */
    workerId: text(),
    leaseUntil: timestamp({ withTimezone: true }),
    attempts: integer().notNull().default(0),
    /** The local runner a queued client run waits for, and that runs it (a scheduled run meant for that device). */
    deviceId: uuid().references(() => devices.id, { onDelete: 'set null' }),
    /** The automation's version its steps were taken from; null for runs from before it was kept. */
    automationVersion: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('automation_runs_status_check', sql`${table.status} in ('queued', 'running', 'succeeded', 'failed', 'cancelled')`),
    check('automation_runs_trigger_check', sql`${table.trigger} in ('manual', 'schedule', 'extension', 'desktop', 'url', 'api')`),
    check('automation_runs_runner_check', sql`${table.runner} in ('cloud', 'client')`),
    check('automation_runs_trace_mode_check', sql`${table.traceMode} in (${sql.raw(TRACE_MODES.map((mode) => `'${mode}'`).join(', '))})`),
    check('automation_runs_counts_check', sql`${table.actionsPerformed} >= 0 and ${table.creditsCharged} >= 0`),
    index().on(table.workspaceId, table.createdAt),
    index().on(table.automationId, table.createdAt),
    index().on(table.status, table.runner, table.createdAt),
    index().on(table.deviceId, table.status),
    // Runs that ended a day, by outcome (the admin's overview, docs/decisions/063).
    index().on(table.finishedAt, table.status),
    // A member's own runs: stopped when they are suspended, listed in the admin's timeline of them.
    index().on(table.userId, table.createdAt),
    // The retention sweep's runs: those that still keep files.
    index('automation_runs_files_kept_idx')
      .on(table.finishedAt)
      .where(sql`${table.storedBytes} > 0 and ${table.filesRemovedAt} is null`),
  ],
)

/**
 * Each workspace's turn in the cloud queue (docs/decisions/038): start-time fair queuing on a
 * virtual clock. A claim serves the workspace whose next turn starts first (ties: the older run),
 * moves its next turn on by a stride of 1,000,000 divided by its plan's weight, and the clock to
 * where that turn started. Only claims write it, under their advisory lock.
 */
export const cloudQueueTurns = pgTable(
  'cloud_queue_turns',
  {
    workspaceId: text()
      .primaryKey()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Where on the virtual clock its latest claim started: the largest of these is the clock. */
    lastStart: bigint({ mode: 'number' }).notNull(),
    /** Where its next turn starts, unless the clock has passed it (then at the clock: no credit saved up while idle). */
    nextStart: bigint({ mode: 'number' }).notNull(),
  },
  (table) => [index().on(table.lastStart)],
)

/**
 * An automation's trigger URL (docs/decisions/027): whoever holds its secret may start a cloud run
 * of the automation with inputs. Only a hash of the secret is kept; rotating replaces it, revoking
 * deletes the row.
 */
export const automationTriggers = pgTable('automation_triggers', {
  id: uuid().primaryKey().defaultRandom(),
  automationId: uuid()
    .notNull()
    .unique()
    .references(() => automations.id, { onDelete: 'cascade' }),
  workspaceId: text()
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  /** SHA-256 of the secret, hex: the URL's last part is looked up by it. */
  secretHash: text().notNull().unique(),
  /** The secret's last four characters, to tell URLs apart. */
  hint: text().notNull(),
  /** Who made (or last rotated) it: the runs it starts are theirs; null once their account is gone. */
  createdBy: text().references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp({ withTimezone: true }),
})

/** A member's API keys for the extension, the desktop apps and scripts, each for one workspace; only a hash is kept. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The workspace the key works in (with its member's role there). */
    workspaceId: text()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** The key's first characters, shown in lists and used to find it ('ak_3f9c2a1b'). */
    prefix: text().notNull().unique(),
    /** SHA-256 of the whole key (keys are long random strings, so a fast hash is enough). */
    hash: text().notNull(),
    /** What the key may do (common/api-keys.ts); keys made before scopes existed got `automations`. */
    scopes: text()
      .array()
      .$type<ApiKeyScope[]>()
      .notNull()
      .default(sql`'{automations}'::text[]`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.userId, table.createdAt)],
)
