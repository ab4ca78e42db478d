// Runs from start to finish: starting (caps, credits), progress, finishing, cancelling and refunds.
// Over 300 lines: the run's life cycle and its credit bookkeeping share one set of
// transactions, and splitting them would spread the refund rules over two files.
import { and, count, desc, eq, gte, isNull } from 'drizzle-orm'
import { CLOUD_RUN_CREDITS, FINISHED_STATUSES, type RunTrigger } from '#common/automations.ts'
import { AppError, LimitReached, NotFound, ValidationError } from '#common/errors.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import type { Db, DbOrTx, Tx } from '#server/db/client.ts'
import { automationRuns, automations, subscriptionPlans, workspaces, type RunLogLine } from '#server/db/schema/index.ts'
import type { Caller } from '#common/auth.ts'
import type { CreditService } from '#server/features/credits/credit.service.ts'
import type { EventBus } from '#server/features/events/event-bus.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import type { WebhookOutbox } from '#server/features/webhooks/webhook-outbox.ts'
import { monthStart } from '#common/calendar.ts'
import { checkInputs, type RunInputs } from '#common/run-inputs.ts'
import type { AutomationStep } from '#common/automation-steps.ts'
import { isVaultPlaceholder, misplacedSecrets, placeholdersOf, secretReadBacks } from '#common/step-placeholders.ts'
import { createCloudQueue } from './cloud-queue.ts'
import { createClientReports } from './client-reports.ts'
import { createRunHistory, notRefused } from './run-history.ts'
import { runnerFacts, whyNotQueuedFor } from './runner-approval-check.ts'
import { requireUnverifiedAllowance } from './unverified-allowance.ts'
import { requireActiveAccount } from './suspended-account-check.ts'
import { stopRunsOfAccountIn } from './stop-account-runs.ts'
import { DESKTOP_STEP_TYPES } from '#common/desktop-steps.ts'
import { runDataIn } from './run-data.ts'
import type { RunDataSource } from '#server/tables/data-sources.ts'
import { keptRowsOf } from '#server/tables/kept-rows.ts'
import { resumeOf, type Resume } from './run-resume.ts'

export type Run = typeof automationRuns.$inferSelect
export type Runner = Run['runner']
/** How a run starts: where, why, and the values for its `{{input.name}}` placeholders. */
export type StartOptions = {
  runner: Runner
  trigger: RunTrigger
  inputs?: RunInputs
  /** The rows a "for each row" block goes through (docs/decisions/046). */
  data?: RunDataSource
  /** Continues a failed run (docs/decisions/046): its steps, from a step, on its page, its finished rows kept. */
  resume?: Resume
  /** A client run queued for this local runner (a scheduled run meant for it, or "Run on …"), instead of one a client runs now. */
  device?: { id: string; name?: string }
  /** The connected device (extension, local runner) that starts this client run and runs it now. */
  startedOn?: string
}

/**
 * A start that was refused and recorded (recordRefusalIn, or a local runner's claim that refused a
 * queued run): a run that failed without ever starting. Every other failed run started first
 * (a claim, or a client run started now), which set started_at.
 */
const isRefusal = (run: Pick<Run, 'status' | 'startedAt'>) => run.status === 'failed' && run.startedAt === null

const line = (level: RunLogLine['level'], message: string): RunLogLine => ({ at: new Date().toISOString(), level, message })

/**
 * Runs of automations: starting one (plan caps and credits checked, the cloud credit charged, in
 * one transaction), what clients report about runs they execute, cancelling and refunds, with the
 * reads of run-history.ts. docs/decisions/012-automations-credits-and-runs.md has the rules.
 */
export function createRunService(deps: {
  db: Db
  credits: CreditService
  events: EventBus
  activity: Pick<AuditService, 'record'>
  /** Queues run.succeeded / run.failed / run.cancelled for the workspace's webhooks (docs/decisions/026). */
  webhooks?: Pick<WebhookOutbox, 'runFinishedIn'>
  /**
   * Refuses steps naming a secret the run's starter may not use (vault.service.ts checkUse,
   * docs/decisions/039): their role in the workspace now, whoever calls (session, key, device,
   * schedule, trigger URL).
   */
  secretUse?: (tx: DbOrTx, workspaceId: string, userId: string | null, steps: readonly AutomationStep[]) => Promise<void>
  /** Why a device may not receive vault values (vault/device-vault.ts, docs/decisions/048), or null when it may. */
  deviceVault?: (tx: DbOrTx, deviceId: string) => Promise<string | null>
}) {
  const { db, credits, events, activity, webhooks } = deps
  const finishedIn = async (tx: DbOrTx, run: Run) => {
    await webhooks?.runFinishedIn(tx, run)
  }

  const announce = (run: Pick<Run, 'id' | 'workspaceId' | 'status' | 'automationId'>) =>
    events.publish('run', { id: run.id, workspaceId: run.workspaceId, status: run.status, automationId: run.automationId })

  /** Starting, reporting on and cancelling runs changes things: viewers only look. */
  const requireMember = (caller: Caller) => requireWorkspaceRole(caller.workspace.role, 'member', 'Starting or cancelling runs')

  async function find(id: string, caller: Caller): Promise<Run> {
    const [run] = await db.select().from(automationRuns).where(eq(automationRuns.id, id))
    if (!run || (run.workspaceId !== caller.workspace.id && caller.role !== 'admin')) throw new NotFound('Run not found')
    return run
  }

  /**
   * Runs this month that count against the plan's cap (a run refunded for our failure does not,
   * nor a refused scheduled start).
   */
  async function runsThisMonth(tx: Pick<Db, 'select'>, workspaceId: string): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(automationRuns)
      .where(
        and(
          eq(automationRuns.workspaceId, workspaceId),
          gte(automationRuns.createdAt, monthStart()),
          isNull(automationRuns.refundedAt),
          notRefused,
        ),
      )
    return row?.n ?? 0
  }

  async function refundIn(tx: Tx, run: Run, why: string): Promise<void> {
    if (run.creditsCharged > 0 && !run.refundedAt) {
      await credits.applyIn(tx, {
        workspaceId: run.workspaceId,
        delta: run.creditsCharged,
        reason: 'refund',
        reference: `run ${run.id}: ${why}`,
      })
    }
    await tx.update(automationRuns).set({ refundedAt: new Date() }).where(eq(automationRuns.id, run.id))
  }

  /** A run is queued for a local runner only when its owner approved the automation's current version there (docs/decisions/032, amended). */
  async function checkRunner(
    tx: Tx,
    device: { id: string; name?: string },
    automation: typeof automations.$inferSelect,
    caller: Caller,
    trigger: RunTrigger,
  ): Promise<{ id: string; name: string }> {
    const runner = await runnerFacts(tx, device.id)
    if (!runner || runner.workspaceId !== caller.workspace.id)
      throw new NotFound('There is no local runner with this id in this workspace.')
    const refusal = runner.revoked
      ? `The local runner “${runner.name}” is no longer connected to this workspace.`
      : whyNotQueuedFor(runner, automation, { userId: caller.id || null, trigger })
    if (refusal) throw new AppError(409, refusal, 'RUNNER_NOT_APPROVED')
    return { id: runner.id, name: runner.name }
  }

  /**
   * Starts a run of one of the caller's automations. A cloud run is queued for the worker and
   * costs CLOUD_RUN_CREDITS; a client run (extension, desktop) is running from now on and is
   * reported by the client. Refused before anything is stored when the plan or balance says no.
   */
  async function startAndAnnounce(automationId: string, caller: Caller, options: StartOptions): Promise<Run> {
    const run = await db.transaction((tx) => startIn(tx, automationId, caller, options))
    announce(run)
    return run
  }

  async function startIn(tx: Tx, automationId: string, caller: Caller, options: StartOptions): Promise<Run> {
    requireMember(caller)
    // Before the workspace is locked: a suspension locks the account, then the workspaces it refunds.
    await requireActiveAccount(tx, caller.id, options.trigger)
    // One start at a time per workspace: the caps below cannot be passed by two at once.
    const [member] = await tx
      .select({
        credits: workspaces.credits,
        plan: subscriptionPlans.name,
        monthlyRunLimit: subscriptionPlans.monthlyRunLimit,
        actionLimit: subscriptionPlans.actionLimit,
        dataRowLimit: subscriptionPlans.dataRowLimit,
        scripts: subscriptionPlans.scripts,
      })
      .from(workspaces)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
      .where(eq(workspaces.id, caller.workspace.id))
      .for('update', { of: workspaces })
    if (!member) throw new NotFound('Workspace not found')
    const [automation] = await tx
      .select()
      .from(automations)
      .where(and(eq(automations.id, automationId), eq(automations.workspaceId, caller.workspace.id)))
    if (!automation) throw new NotFound('Automation not found')
    // A resumed run runs the steps its earlier run ran (docs/decisions/046); any other, the automation's.
    const steps = options.resume?.steps ?? automation.steps
    if (steps.length === 0) throw new ValidationError('This automation has no steps yet: add at least one before running it.')
    const device = options.device ? await checkRunner(tx, options.device, automation, caller, options.trigger) : null
    // A client fills vault values only on a device its member allowed them (docs/decisions/048); any other would type the placeholders.
    const secret = options.runner === 'client' ? placeholdersOf(steps).find(isVaultPlaceholder) : undefined
    const runsOn = device?.id ?? options.startedOn
    if (secret) {
      if (!runsOn || !deps.deviceVault)
        throw new ValidationError(
          `This automation uses ${secret.text} from the vault, which only cloud runs and devices allowed vault values fill in: run it in the cloud.`,
        )
      const refusal = await deps.deviceVault(tx, runsOn)
      if (refusal) throw new ValidationError(`This automation uses ${secret.text} from the vault. ${refusal}`)
    }
    // Steps saved before secrets were bound to fields and sites (docs/decisions/039) do not start.
    const [misplaced] = [...misplacedSecrets(steps), ...secretReadBacks(steps)]
    if (misplaced) {
      throw new ValidationError(`${misplaced.message} Change the step first.`, [
        { path: `steps.${misplaced.index}.${misplaced.field}`, message: misplaced.message },
      ])
    }
    await deps.secretUse?.(tx, caller.workspace.id, caller.id || null, steps)
    // The run keeps its steps as written and the inputs beside them: every placeholder is filled in
    // one pass when a step runs, so nothing an input brings is read as one (docs/decisions/039).
    const inputs = options.inputs ?? {}
    checkInputs(steps, inputs)
    if (member.actionLimit !== null && steps.length > member.actionLimit) {
      throw new LimitReached(
        `The ${member.plan} plan allows up to ${member.actionLimit} actions per automation; this one has ${steps.length}. Remove steps or upgrade.`,
        'PLAN_LIMIT',
      )
    }
    if (member.monthlyRunLimit !== null && (await runsThisMonth(tx, caller.workspace.id)) >= member.monthlyRunLimit) {
      throw new LimitReached(
        `The ${member.plan} plan includes ${member.monthlyRunLimit} automation runs per month, and this month's are used. Upgrade for unlimited automations.`,
        'PLAN_LIMIT',
      )
    }
    // Steps on the member's own files run only there (docs/decisions/046).
    const desktop = options.runner === 'cloud' ? steps.findIndex((step) => DESKTOP_STEP_TYPES.has(step.type)) : -1
    if (desktop >= 0)
      throw new ValidationError(
        `Step ${desktop + 1} (${steps[desktop]?.type}) works with files on your own machine, so this automation runs on the local runner, not in the cloud: \`aether-runner run ${automation.id}\`, or set it to run on your runner.`,
      )
    if (!member.scripts && steps.some((step) => step.type === 'script'))
      throw new LimitReached(`JavaScript steps are not part of the ${member.plan} plan: upgrade to run this automation.`, 'PLAN_LIMIT')
    const dataRows = options.resume
      ? options.resume.dataRows
      : await runDataIn(tx, caller.workspace.id, steps, options.data, { name: member.plan, dataRowLimit: member.dataRowLimit }, () =>
          keptRowsOf(tx, automation.id),
        )
    const finishedRows = options.resume?.finishedRows ?? []
    if (options.runner === 'cloud') await requireUnverifiedAllowance(tx, caller.id)
    // A cloud run's data rows are each a run's work (docs/decisions/046): a credit a row.
    const cost = options.runner === 'cloud' ? CLOUD_RUN_CREDITS * Math.max(1, dataRows.length - finishedRows.length) : 0
    if (cost > member.credits) {
      throw new LimitReached(
        `Running in the cloud costs ${cost} credit${cost === 1 ? '' : 's'}, and your balance is ${member.credits}. Your plan's monthly credits arrive with the next billing period.`,
        'INSUFFICIENT_CREDITS',
      )
    }
    const now = new Date()
    const [created] = await tx
      .insert(automationRuns)
      .values({
        automationId: automation.id,
        automationName: automation.name,
        workspaceId: caller.workspace.id,
        // A scheduled run of an automation whose creator's account is gone is nobody's (scheduledCaller).
        userId: caller.id || null,
        status: options.runner === 'cloud' || options.device ? 'queued' : 'running',
        trigger: options.trigger,
        runner: options.runner,
        steps,
        inputs,
        dataRows,
        rowOutcomes: finishedRows,
        resumedFrom: options.resume?.from ?? null,
        startStep: options.resume?.startStep ?? 1,
        resumeUrl: options.resume?.url ?? null,
        selfRepair: automation.selfRepair,
        keepSession: automation.keepSession,
        signInBlock: automation.signInBlock,
        traceMode: automation.trace,
        askPersonOnCaptcha: automation.askPersonOnCaptcha,
        timeLimitSeconds: automation.runTimeLimitSeconds,
        stepLimit: automation.runStepLimit,
        creditsCharged: cost,
        deviceId: runsOn ?? null,
        automationVersion: automation.version,
        startedAt: options.runner === 'client' && !options.device ? now : null,
        log: [
          line(
            'info',
            device
              ? `Queued for the local runner “${device.name}”.`
              : options.runner === 'cloud'
                ? `Queued to run in the cloud${options.trigger === 'url' ? ', started by its trigger URL' : ''}.`
                : `Started by the ${options.trigger === 'desktop' ? 'desktop app' : 'extension'}.`,
          ),
        ],
      })
      .returning()
    if (!created) throw new Error('run insert returned nothing')
    if (cost > 0)
      await credits.applyIn(tx, { workspaceId: caller.workspace.id, delta: -cost, reason: 'usage', reference: `run ${created.id}` })
    if (options.trigger !== 'schedule') {
      await activity.record(
        tx,
        { id: caller.id || null, email: caller.email },
        {
          workspaceId: caller.workspace.id,
          action: 'run.start',
          targetType: 'run',
          targetId: created.id,
          summary: `Ran ${automation.name}${options.runner === 'client' ? ` in the ${options.trigger === 'desktop' ? 'desktop app' : 'extension'}` : ' in the cloud'}${options.trigger === 'url' ? ' from its trigger URL' : ''}`,
        },
      )
    }
    return created
  }

  return {
    runsThisMonth: (workspaceId: string) => runsThisMonth(db, workspaceId),

    start: startAndAnnounce,

    /**
     * Continues a failed or cancelled run as a new cloud run (docs/decisions/046): the same steps,
     * inputs and rows, from the step it stopped at (or `fromStep`), on the page it stopped on;
     * rows it finished are kept and not run (or paid for) again. The new run links to the old.
     */
    async resume(runId: string, caller: Caller, options: { fromStep?: number } = {}): Promise<Run> {
      const earlier = await find(runId, caller)
      if (earlier.workspaceId !== caller.workspace.id) throw new NotFound('Run not found')
      const automationId = earlier.automationId
      if (!automationId) throw new ValidationError('The automation of this run was deleted, so it cannot be resumed.')
      const resume = resumeOf(earlier, options.fromStep)
      return startAndAnnounce(automationId, caller, { runner: 'cloud', trigger: 'manual', inputs: earlier.inputs, resume })
    },

    /**
     * Starts a finished run's automation again as a new run with the same inputs and data rows:
     * in the cloud, or with `onDevice` on the local runner it ran on (no credits).
     */
    async runAgain(runId: string, caller: Caller, options: { onDevice?: boolean; trigger?: RunTrigger } = {}): Promise<Run> {
      const earlier = await find(runId, caller)
      if (earlier.workspaceId !== caller.workspace.id) throw new NotFound('Run not found')
      const automationId = earlier.automationId
      if (!automationId) throw new ValidationError('The automation of this run was deleted, so it cannot be run again.')
      if (!FINISHED_STATUSES.includes(earlier.status))
        throw new ValidationError('This run has not finished: wait for it or cancel it before running it again.')
      // The extension's runs name its device too: only a local runner takes a run queued for it.
      const runner = options.onDevice && earlier.deviceId ? await runnerFacts(db, earlier.deviceId) : null
      if (options.onDevice && !runner) throw new ValidationError('This run did not run on a local runner: run it again in the cloud.')
      return startAndAnnounce(automationId, caller, {
        runner: runner ? 'client' : 'cloud',
        trigger: options.trigger ?? 'manual',
        inputs: earlier.inputs,
        data: earlier.dataRows.length ? { rows: earlier.dataRows } : undefined,
        device: runner ? { id: runner.id } : undefined,
      })
    },

    /**
     * start() inside a transaction the caller holds (the scheduler moves the automation's
     * next_run_at in the same one). The caller announces the run after the commit.
     */
    startIn,

    /**
     * Records a scheduled start that was refused (no credits, a plan cap) as a failed run that
     * never started, so the member sees why in the history. Once per streak: when the
     * automation's last run is the same refusal, nothing is added. A refused run costs nothing and
     * does not count against the month (docs/decisions/012, Amended 2026-11-23).
     */
    async recordRefusalIn(
      tx: Tx,
      automation: { id: string; name: string; workspaceId: string; ownerId: string | null; steps: Run['steps'] },
      trigger: RunTrigger,
      message: string,
    ): Promise<Run | null> {
      const [last] = await tx
        .select()
        .from(automationRuns)
        .where(eq(automationRuns.automationId, automation.id))
        .orderBy(desc(automationRuns.createdAt), desc(automationRuns.id))
        .limit(1)
      if (last && isRefusal(last) && last.error === message) return null
      const [row] = await tx
        .insert(automationRuns)
        .values({
          automationId: automation.id,
          automationName: automation.name,
          workspaceId: automation.workspaceId,
          userId: automation.ownerId,
          status: 'failed',
          trigger,
          runner: 'cloud',
          steps: automation.steps,
          error: message,
          finishedAt: new Date(),
          log: [line('error', `Not started: ${message}`)],
        })
        .returning()
      if (row) await finishedIn(tx, row)
      return row ?? null
    },

    /** Queue positions of queued cloud runs, and a workspace's cloud runs against its plan's limit (docs/decisions/029). */
    ...createCloudQueue(db),

    /** Tells live pages that a run changed (after the transaction that changed it). */
    ...createRunHistory(db),

    announce,

    /** Queues the webhooks of a run that finished (the run queue calls it in the transaction that finished it). */
    finishedIn,

    get: find,

    /** A run by id for a signed artifact link (the link's signature is the authorisation; docs/decisions/026). */
    async findForLink(id: string): Promise<Run | null> {
      const [run] = await db.select().from(automationRuns).where(eq(automationRuns.id, id))
      return run ?? null
    },

    /** What clients report on runs they execute: progress, the finish, screenshots. */
    ...createClientReports({ db, announce, finishedIn }),

    /**
     * Cancels a run that has not finished. A queued cloud run gets its credit back (nothing ran);
     * a running one stops at its next step and keeps the charge.
     */
    async cancel(id: string, caller: Caller): Promise<Run> {
      const cancelled = await db.transaction(async (tx) => {
        const [run] = await tx.select().from(automationRuns).where(eq(automationRuns.id, id)).for('update')
        if (!run || run.workspaceId !== caller.workspace.id) throw new NotFound('Run not found')
        requireMember(caller)
        if (FINISHED_STATUSES.includes(run.status))
          throw new ValidationError(`This run has already ${run.status === 'cancelled' ? 'been cancelled' : 'finished'}.`)
        if (run.status === 'queued') await refundIn(tx, run, 'cancelled before it started')
        const [row] = await tx
          .update(automationRuns)
          .set({
            status: 'cancelled',
            finishedAt: new Date(),
            updatedAt: new Date(),
            log: [...run.log, line('warn', `Cancelled by ${caller.email}.`)],
          })
          .where(eq(automationRuns.id, id))
          .returning()
        if (!row) throw new NotFound('Run not found')
        await activity.record(tx, caller, {
          workspaceId: run.workspaceId,
          action: 'run.cancel',
          targetType: 'run',
          targetId: run.id,
          summary: `Cancelled a run of ${run.automationName}`,
        })
        await finishedIn(tx, row)
        return row
      })
      announce(cancelled)
      return cancelled
    },

    /** refund() inside the caller's transaction, for a run row it holds. */
    refundIn,

    /** Cancels every unfinished run a member started (their account is being suspended): stop-account-runs.ts. */
    stopRunsOfAccountIn: (tx: Tx, userId: string, why: string) => stopRunsOfAccountIn({ refundIn, finishedIn }, tx, userId, why),

    /**
     * Gives back the credits of the data rows a cloud run never reached (docs/decisions/046: a credit
     * is a row's work, and a row not run did none), once, when the run ends.
     */
    async refundRowsNotRunIn(tx: Tx, run: Run): Promise<void> {
      const notRun = run.rowOutcomes.filter((row) => row.status === 'not run').length
      const refundable = Math.min(notRun, run.creditsCharged)
      if (refundable === 0 || run.refundedAt || run.runner !== 'cloud') return
      await credits.applyIn(tx, {
        workspaceId: run.workspaceId,
        delta: refundable,
        reason: 'refund',
        reference: `run ${run.id}: ${refundable} data row${refundable === 1 ? '' : 's'} not run`,
      })
    },

    /** Gives a run's credits back (a failure on our side); once per run. */
    async refund(id: string, why: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [run] = await tx.select().from(automationRuns).where(eq(automationRuns.id, id)).for('update')
        if (run && !run.refundedAt) await refundIn(tx, run, why)
      })
    },
  }
}

export type RunService = ReturnType<typeof createRunService>
