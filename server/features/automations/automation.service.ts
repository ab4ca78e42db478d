// A workspace's automations: list, create, change (a new version), duplicate, apply a target, remove.
// Over 300 lines: every change passes the same checks (steps, vault names, sign-in block, run
// limits, the plan's action limit), kept beside the operations that call them; the schedule's
// rules are in automation-schedules.ts, the local runner's choice and approval in runner-choice.ts
// and runner-approval.ts, what an unverified address may not change in others' in unattended-runs.ts.
import { and, asc, count, desc, eq, sql } from 'drizzle-orm'
import { parseSteps, type AutomationStep } from '#common/automation-steps.ts'
import type { AutomationData, AutomationChanges, SignInBlock } from '#common/automations.ts'
import { isVaultPlaceholder, misplacedSecrets, placeholdersOf, secretReadBacks } from '#common/step-placeholders.ts'
import { UNCONFIRMED_SITES_DAYS, unconfirmedSitesLapsed, VAULT_USE_ROLE_WHO } from '#common/vault.ts'
import { Conflict, Forbidden, LimitReached, NotFound, ValidationError } from '#common/errors.ts'
import { MAX_TARGET_ALTERNATIVES, type Target } from '#common/targets.ts'
import type { Page } from '#common/pagination.ts'
import { tablePage } from '#server/db/newest-first-page.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { automations, subscriptionPlans, workspaces } from '#server/db/schema/index.ts'
import type { Caller } from '#common/auth.ts'
import { hasRole, requireWorkspaceRole, WORKSPACE_ROLE_NAMES } from '#common/workspaces.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import type { SecretRule } from '#server/features/vault/vault.service.ts'
import type { WebhookOutbox } from '#server/features/webhooks/webhook-outbox.ts'
import { createScheduleRules, sameSchedule } from './automation-schedules.ts'
import { approveRunner } from './runner-approval.ts'
import { chooseRunner, requireConnectedForSchedule, runnerOf, type RunnerChoice } from './runner-choice.ts'
import { rowsOf, type RunDataSource } from '#server/tables/data-sources.ts'
import {
  automationFileBytes,
  copyAutomationFiles,
  listAutomationFiles,
  removeAutomationFile,
  writeAutomationFile,
  type AutomationFileSummary,
} from './automation-files.ts'
import { copyKeptRows, keptRowsSummary, writeKeptRows, type KeptRows, type KeptRowsSummary } from '#server/tables/kept-rows.ts'
import { requireVerifiedForUnattendedRuns } from './unattended-runs.ts'

export type Automation = typeof automations.$inferSelect
/** The platform's limits of every cloud run. */
export interface RunLimits {
  timeLimitSeconds: number
  maxActions: number
}
/** Fields a caller that creates an automation (a template, an import) may leave out: their defaults apply. */
type OptionalOnCreate =
  'selfRepair' | 'keepSession' | 'trace' | 'askPersonOnCaptcha' | 'signInBlock' | 'runTimeLimitSeconds' | 'runStepLimit' | 'deviceId'

/** The field of a step that holds placeholders (step-placeholders.ts), for the builder to show a refusal under. */
const PLACEHOLDER_FIELD: Partial<Record<AutomationStep['type'], string>> = {
  navigate: 'url',
  type: 'text',
  select: 'value',
  assertText: 'text',
}

/** The most automations one workspace keeps (a guard against runaway scripts, not a plan feature). */
const MAX_AUTOMATIONS_PER_WORKSPACE = 500

/**
 * A workspace's automations: named, versioned steps with an optional schedule. Steps are checked
 * one by one (the message names the step and field) and against the plan's action limit; a new or
 * changed schedule against the plan's shortest interval (docs/decisions/036). Everyone in the
 * workspace sees them; members and above change them (docs/decisions/021).
 */
export function createAutomationService(
  db: Db,
  activity: Pick<AuditService, 'record'>,
  hooks: {
    /** Queues automation.changed for the workspace's webhooks, in the transaction of the change (docs/decisions/026). */
    webhooks?: Pick<WebhookOutbox, 'automationChangedIn'>
    /**
     * The workspace's secrets with their kinds, sites and roles (vault.service.ts): steps may only
     * name secrets that exist (docs/decisions/025), that have sites and that the caller's role may
     * use (docs/decisions/039).
     */
    secretRules?: (workspaceId: string) => Promise<Map<string, SecretRule>>
    /** Drops the automation's kept browser session (vault.service.ts) when keeping it is turned off. */
    dropSession?: (workspaceId: string, automationId: string) => Promise<unknown>
    /** The platform's run limits (RUN_TIME_LIMIT_MS, RUN_MAX_ACTIONS): an automation's own may only be lower (docs/decisions/028). */
    runLimits?: RunLimits
    /** The plan's shortest schedule interval, and the plan a refusal names (docs/decisions/036). */
    plans?: Pick<PlanService, 'allowancesOf' | 'cheapestAllowingSchedulesEvery' | 'requireFeature'>
    /** The time: when a schedule next fires is counted from it (tests move it across a daylight-saving change). */
    clock?: () => Date
  } = {},
) {
  const schedules = createScheduleRules({ plans: hooks.plans, clock: hooks.clock ?? (() => new Date()) })
  const changed = async (tx: Tx, automation: Automation, change: 'created' | 'updated' | 'deleted', caller: Caller) => {
    await hooks.webhooks?.automationChangedIn(tx, automation, change, caller)
  }

  /**
   * Steps that place a secret anywhere but in a field's typed text, read a field back where one is
   * typed, name a secret the vault lacks or use it the wrong way, name one with no sites yet (or
   * unconfirmed ones past their time), or one the caller's role may not use, are refused with the
   * step's number and field (docs/decisions/025, 039 and its amendment).
   */
  async function checkSecrets(caller: Caller, steps: AutomationStep[]): Promise<void> {
    const [misplaced] = [...misplacedSecrets(steps), ...secretReadBacks(steps)]
    if (misplaced) {
      throw new ValidationError(misplaced.message, [{ path: `steps.${misplaced.index}.${misplaced.field}`, message: misplaced.message }])
    }
    const named = placeholdersOf(steps).filter(isVaultPlaceholder)
    if (named.length === 0 || !hooks.secretRules) return
    const rules = await hooks.secretRules(caller.workspace.id)
    for (const [index, step] of steps.entries()) {
      for (const placeholder of placeholdersOf([step]).filter(isVaultPlaceholder)) {
        const rule = rules.get(placeholder.name)
        const kind = rule?.kind
        const where = `Step ${index + 1}`
        const path = `steps.${index}.${PLACEHOLDER_FIELD[step.type] ?? 'text'}`
        let message: string | null = null
        if (!rule)
          message = `${where} uses ${placeholder.text}, but the vault has no secret named ${placeholder.name}. Add it in Vault first.`
        else if (placeholder.kind === 'totp' && kind !== 'totp')
          message = `${where} uses ${placeholder.text}, but ${placeholder.name} is not a TOTP secret: use {{secrets.${placeholder.name}}}.`
        else if (placeholder.kind === 'secrets' && kind === 'totp')
          message = `${where} uses ${placeholder.text}, but ${placeholder.name} is a TOTP secret: use {{totp.${placeholder.name}}} for its current code.`
        else if (rule.origins.length === 0)
          message = `${where} uses ${placeholder.text}, but ${placeholder.name} names no site it may be typed on yet: name its sites in Vault first.`
        else if (unconfirmedSitesLapsed(rule.originsFromStepsAt))
          message = `${where} uses ${placeholder.text}, but the sites of ${placeholder.name} were set from the automations and nobody who knows its value confirmed them within ${UNCONFIRMED_SITES_DAYS} days: confirm them in Vault first.`
        if (message) throw new ValidationError(message, [{ path, message }])
        if (rule && !hasRole(caller.workspace.role, rule.useRole)) {
          const refusal = `${where} uses ${placeholder.text}, which only ${VAULT_USE_ROLE_WHO[rule.useRole]} may use in their automations; you are ${WORKSPACE_ROLE_NAMES[caller.workspace.role].toLowerCase()}.`
          throw new Forbidden(refusal, [{ path, message: refusal }])
        }
      }
    }
  }

  function checkSignInBlock(block: SignInBlock | null | undefined, steps: readonly unknown[]): void {
    if (!block) return
    if (block.to > steps.length) {
      const message = `The sign-in block ends at step ${block.to}, but the automation has ${steps.length} step${steps.length === 1 ? '' : 's'}.`
      throw new ValidationError(message, [{ path: 'signInBlock.to', message }])
    }
  }

  function checkRunLimits(data: Pick<AutomationChanges, 'runTimeLimitSeconds' | 'runStepLimit'>): void {
    const platform = hooks.runLimits
    if (!platform) return
    const over = (path: string, message: string) => new ValidationError(message, [{ path, message }])
    if ((data.runTimeLimitSeconds ?? 0) > platform.timeLimitSeconds)
      throw over(
        'runTimeLimitSeconds',
        `Runs stop after ${platform.timeLimitSeconds} seconds on this server: the time limit can only be lower.`,
      )
    if ((data.runStepLimit ?? 0) > platform.maxActions)
      throw over('runStepLimit', `Runs stop after ${platform.maxActions} actions on this server: the action limit can only be lower.`)
  }

  async function actionLimitOf(workspaceId: string): Promise<{ plan: string; limit: number | null }> {
    const [row] = await db
      .select({ plan: subscriptionPlans.name, limit: subscriptionPlans.actionLimit })
      .from(workspaces)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
      .where(eq(workspaces.id, workspaceId))
    return row ?? { plan: 'Free', limit: null }
  }

  async function checkedSteps(caller: Caller, workspaceId: string, raw: unknown[]): Promise<AutomationStep[]> {
    const parsed = parseSteps(raw)
    if (!parsed.ok) throw new ValidationError(parsed.issues[0]?.message ?? 'Invalid steps', parsed.issues)
    await checkSecrets(caller, parsed.steps)
    // The member's own JavaScript is the plan's to allow (docs/decisions/046).
    if (parsed.steps.some((step) => step.type === 'script')) await hooks.plans?.requireFeature(workspaceId, 'scripts')
    const { plan, limit } = await actionLimitOf(workspaceId)
    if (limit !== null && parsed.steps.length > limit) {
      throw new LimitReached(
        `The ${plan} plan allows up to ${limit} actions per automation; this one has ${parsed.steps.length}. Upgrade for unlimited actions.`,
        'PLAN_LIMIT',
      )
    }
    return parsed.steps
  }

  async function owned(id: string, caller: Caller): Promise<Automation> {
    const [row] = await db.select().from(automations).where(eq(automations.id, id))
    // Another workspace's automation is as unknown as a missing one (a site admin reads any).
    if (!row || (row.workspaceId !== caller.workspace.id && caller.role !== 'admin')) throw new NotFound('Automation not found')
    return row
  }

  const requireMember = (caller: Caller) => requireWorkspaceRole(caller.workspace.role, 'member', 'Changing automations')

  async function ownedForChange(id: string, caller: Caller): Promise<Automation> {
    const row = await owned(id, caller)
    if (row.workspaceId !== caller.workspace.id) throw new NotFound('Automation not found')
    requireMember(caller)
    return row
  }

  const record = (tx: Pick<Db, 'insert'>, caller: Caller, action: string, automation: Pick<Automation, 'id' | 'name'>, summary: string) =>
    activity.record(tx, caller, { workspaceId: caller.workspace.id, action, targetType: 'automation', targetId: automation.id, summary })

  return {
    actionLimitOf,

    async list(workspaceId: string, query: { page: number; limit: number }): Promise<Page<Automation>> {
      const where = eq(automations.workspaceId, workspaceId)
      return tablePage(db, automations, where, [desc(automations.updatedAt), desc(automations.id)], query)
    },

    /** Every automation's id and name, by name: the choices of a filter. */
    async names(workspaceId: string): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: automations.id, name: automations.name })
        .from(automations)
        .where(eq(automations.workspaceId, workspaceId))
        .orderBy(asc(automations.name), asc(automations.id))
        .limit(MAX_AUTOMATIONS_PER_WORKSPACE)
    },

    get: owned,

    /**
     * Input parsed by the front door (automationInputSchema); the steps are checked here. `origin`
     * names the gallery template it was made from, for the activity entry (docs/decisions/022).
     */
    async create(
      caller: Caller,
      data: Omit<AutomationData, OptionalOnCreate> & Partial<Pick<AutomationData, OptionalOnCreate>>,
      origin?: { template: { id: string; name: string } },
    ): Promise<Automation> {
      requireMember(caller)
      const workspaceId = caller.workspace.id
      const steps = await checkedSteps(caller, workspaceId, data.steps)
      checkSignInBlock(data.signInBlock, steps)
      checkRunLimits(data)
      const runner = await chooseRunner(db, caller, data.deviceId, null)
      const settled = schedules.settle(data.schedule, data.enabled, null)
      await schedules.checkInterval(workspaceId, settled.schedule, null)
      const [totals] = await db.select({ total: count() }).from(automations).where(eq(automations.workspaceId, workspaceId))
      if ((totals?.total ?? 0) >= MAX_AUTOMATIONS_PER_WORKSPACE) {
        throw new LimitReached(`A workspace can keep up to ${MAX_AUTOMATIONS_PER_WORKSPACE} automations; delete some first.`, 'PLAN_LIMIT')
      }
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(automations)
          .values({
            ...data,
            ...settled,
            workspaceId,
            ownerId: caller.id,
            steps,
            deviceId: runner.deviceId,
            // A new automation is version 1.
            deviceApprovedVersion: runner.approval === 'approve' ? 1 : null,
            nextRunAt: schedules.nextRunAt(settled.schedule, settled.enabled),
          })
          .returning()
        if (!row) throw new Error('automation insert returned nothing')
        if (origin) {
          await activity.record(tx, caller, {
            workspaceId,
            action: 'automation.create',
            targetType: 'automation',
            targetId: row.id,
            summary: `Created ${row.name} from the template “${origin.template.name}”`,
            after: { templateId: origin.template.id },
          })
        } else await record(tx, caller, 'automation.create', row, `Created ${row.name}`)
        await changed(tx, row, 'created', caller)
        return row
      })
    },

    /**
     * Saves the fields sent; with `expectedVersion`, only if nobody saved another version since (else
     * Conflict). `reviewed`: the caller saves the whole automation as they saw it at `expectedVersion`
     * (the builder), so the save of its runner's owner approves what it saves, a colleague's earlier
     * change included; any other save of theirs keeps a current approval current (docs/decisions/032).
     */
    async update(
      id: string,
      caller: Caller,
      data: AutomationChanges,
      options: { expectedVersion?: number; reviewed?: boolean } = {},
    ): Promise<Automation> {
      const current = await ownedForChange(id, caller)
      const steps = data.steps === undefined ? undefined : await checkedSteps(caller, current.workspaceId, data.steps)
      checkSignInBlock(data.signInBlock === undefined ? current.signInBlock : data.signInBlock, steps ?? current.steps)
      checkRunLimits(data)
      const chosen = await chooseRunner(db, caller, data.deviceId, current)
      const seen = chosen.deviceId !== current.deviceId || (options.reviewed === true && options.expectedVersion !== undefined)
      const runner: RunnerChoice = chosen.approval === 'approve' && !seen ? { ...chosen, approval: 'renew' } : chosen
      const { schedule, enabled } = schedules.settle(data.schedule, data.enabled, current)
      requireConnectedForSchedule(runner, { schedule, enabled })
      // Someone else's automation may not give an unverified address cloud runs in its owner's name (docs/decisions/040, amended).
      await requireVerifiedForUnattendedRuns(db, caller, current, { schedule, enabled, deviceId: runner.deviceId }, { ...data, steps })
      await schedules.checkInterval(current.workspaceId, schedule, current.schedule)
      const scheduleChanged = !sameSchedule(schedule, current.schedule) || enabled !== current.enabled
      return db
        .transaction(async (tx) => {
          const [row] = await tx
            .update(automations)
            .set({
              ...data,
              steps,
              schedule,
              enabled,
              deviceId: runner.deviceId,
              ...approvalOf(runner),
              ...(scheduleChanged ? { nextRunAt: schedules.nextRunAt(schedule, enabled) } : {}),
              version: sql`${automations.version} + 1`,
              updatedAt: new Date(),
            })
            .where(
              and(
                eq(automations.id, id),
                eq(automations.workspaceId, caller.workspace.id),
                options.expectedVersion === undefined ? undefined : eq(automations.version, options.expectedVersion),
              ),
            )
            .returning()
          if (!row && options.expectedVersion !== undefined) throw new Conflict('The automation was changed meanwhile; look at it again.')
          if (!row) throw new NotFound('Automation not found')
          await record(tx, caller, 'automation.update', row, `Changed ${row.name} (version ${row.version})`)
          await changed(tx, row, 'updated', caller)
          return row
        })
        .then(async (row) => {
          if (current.keepSession && !row.keepSession) await hooks.dropSession?.(row.workspaceId, row.id)
          return row
        })
    },

    async duplicate(id: string, caller: Caller): Promise<Automation> {
      const source = await ownedForChange(id, caller)
      // The copy keeps the runner only when it is the caller's own: a colleague's runs what they approved.
      const runner = source.deviceId ? await runnerOf(db, source.workspaceId, source.deviceId) : null
      const copy = await this.create(caller, {
        name: `Copy of ${source.name}`.slice(0, 100),
        description: source.description,
        steps: source.steps,
        schedule: source.schedule,
        selfRepair: source.selfRepair,
        keepSession: source.keepSession,
        trace: source.trace,
        askPersonOnCaptcha: source.askPersonOnCaptcha,
        signInBlock: source.signInBlock,
        runTimeLimitSeconds: source.runTimeLimitSeconds,
        runStepLimit: source.runStepLimit,
        deviceId: runner?.userId === caller.id ? runner.id : null,
        // A copy of a scheduled automation does not start firing on its own.
        enabled: source.schedule ? false : source.enabled,
      })
      await copyKeptRows(db, source.id, copy.id)
      await copyAutomationFiles(db, source.id, copy.id)
      return copy
    },

    /**
     * Writes a new target into one step (an applied repair), if that step is still the one the
     * repair was found for; the target's earlier ways stay behind it as fallbacks. A new version.
     */
    async applyTarget(id: string, caller: Caller, change: { index: number; before: AutomationStep; target: Target }): Promise<Automation> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(automations)
          .where(and(eq(automations.id, id), eq(automations.workspaceId, caller.workspace.id)))
          .for('update')
        if (!row) throw new NotFound('Automation not found')
        requireMember(caller)
        const current = row.steps[change.index]
        if (!current || JSON.stringify(current) !== JSON.stringify(change.before) || !('target' in current) || !current.target) {
          throw new Conflict(`Step ${change.index + 1} of “${row.name}” has changed since this run; edit it in the builder instead.`)
        }
        const target = mergedTarget(change.target, current.target)
        const repaired = { ...current, target } as AutomationStep
        // A fix found on a page that showed a vault value names it by its placeholder: never in a target (docs/decisions/039).
        const [misplaced] = misplacedSecrets([repaired])
        if (misplaced)
          throw new Conflict(
            `This fix names ${misplaced.placeholder.text} to find the element; edit step ${change.index + 1} in the builder instead.`,
          )
        const steps = row.steps.map((step, index) => (index === change.index ? repaired : step))
        const [readBack] = secretReadBacks(steps)
        if (readBack) throw new Conflict(`${readBack.message} Edit step ${readBack.index + 1} in the builder instead.`)
        const runner = row.deviceId ? await runnerOf(tx, row.workspaceId, row.deviceId) : null
        const [updated] = await tx
          .update(automations)
          .set({
            steps,
            version: sql`${automations.version} + 1`,
            // The runner's owner applying a fix keeps their approval current (a colleague's change still waits for theirs).
            ...(runner?.userId === caller.id ? approvalOf({ approval: 'renew' }) : {}),
            updatedAt: new Date(),
          })
          .where(eq(automations.id, id))
          .returning()
        if (!updated) throw new NotFound('Automation not found')
        await record(tx, caller, 'automation.repair', updated, `Applied a fix to step ${change.index + 1} of ${updated.name}`)
        await changed(tx, updated, 'updated', caller)
        return updated
      })
    },

    /**
     * The runner's owner lets `version` (the one they looked at) run on their runner
     * (docs/decisions/032, amended): after someone else changed an automation set to run there.
     */
    approveRunner: (id: string, caller: Caller, version: number) => approveRunner(db, activity, id, caller, version),

    /**
     * Keeps rows of data with the automation (or, null, none) for the runs started without rows of
     * their own (docs/decisions/046). Like any change it makes a new version: on a colleague's
     * local runner, that version waits for the runner's owner to approve it (docs/decisions/032).
     */
    async keepRows(id: string, caller: Caller, given: { source: RunDataSource; name: string } | null): Promise<Automation> {
      const current = await ownedForChange(id, caller)
      if (given && !current.steps.some((step) => step.type === 'forEachRow'))
        throw new ValidationError('This automation has no "for each row" block, so it takes no rows of data: add one first.')
      const kept: KeptRows | null = given ? { name: given.name, rows: await rowsOf(db, caller.workspace.id, given.source) } : null
      if (kept?.rows.length === 0)
        throw new ValidationError('The data has no rows: its first line names the columns, and each line after it is a row.')
      const chosen = await chooseRunner(db, caller, undefined, current)
      const runner: RunnerChoice = chosen.approval === 'approve' ? { ...chosen, approval: 'renew' } : chosen
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(automations)
          .set({ ...approvalOf(runner), version: sql`${automations.version} + 1`, updatedAt: new Date() })
          .where(and(eq(automations.id, id), eq(automations.workspaceId, caller.workspace.id)))
          .returning()
        if (!row) throw new NotFound('Automation not found')
        await writeKeptRows(tx, id, kept)
        const summary = kept
          ? `Kept ${kept.rows.length} row${kept.rows.length === 1 ? '' : 's'} of data (${kept.name}) with ${row.name} (version ${row.version})`
          : `Removed the rows of data kept with ${row.name} (version ${row.version})`
        await record(tx, caller, 'automation.update', row, summary)
        await changed(tx, row, 'updated', caller)
        return row
      })
    },

    /** What rows of data are kept with the automation (a viewer may look), or null. */
    async keptRows(id: string, caller: Caller): Promise<KeptRowsSummary | null> {
      const automation = await owned(id, caller)
      return keptRowsSummary(db, automation.id)
    },

    /** The files kept with the automation, for its upload steps (a viewer may look). */
    async files(id: string, caller: Caller): Promise<AutomationFileSummary[]> {
      const automation = await owned(id, caller)
      return listAutomationFiles(db, automation.id)
    },

    /** One kept file's bytes, to download; a missing name is a 404. */
    async fileBytes(id: string, caller: Caller, name: string): Promise<Buffer> {
      const automation = await owned(id, caller)
      const bytes = await automationFileBytes(db, automation.id, name)
      if (!bytes) throw new NotFound('No such file')
      return bytes
    },

    /**
     * Keeps a file with the automation for its upload steps, in place of one of the same name. Not
     * a new version: its steps are unchanged, and only cloud runs choose kept files.
     */
    async keepFile(id: string, caller: Caller, file: { name: string; bytes: Uint8Array }): Promise<AutomationFileSummary[]> {
      const automation = await ownedForChange(id, caller)
      await db.transaction(async (tx) => {
        await writeAutomationFile(tx, automation.id, file)
        await record(tx, caller, 'automation.update', automation, `Kept the file ${file.name} with ${automation.name}`)
      })
      return listAutomationFiles(db, automation.id)
    },

    async removeFile(id: string, caller: Caller, name: string): Promise<AutomationFileSummary[]> {
      const automation = await ownedForChange(id, caller)
      await db.transaction(async (tx) => {
        if (!(await removeAutomationFile(tx, automation.id, name))) throw new NotFound('No such file')
        await record(tx, caller, 'automation.update', automation, `Removed the file ${name} kept with ${automation.name}`)
      })
      return listAutomationFiles(db, automation.id)
    },

    async remove(id: string, caller: Caller): Promise<void> {
      const current = await ownedForChange(id, caller)
      await db.transaction(async (tx) => {
        await tx.delete(automations).where(and(eq(automations.id, id), eq(automations.workspaceId, caller.workspace.id)))
        await record(tx, caller, 'automation.delete', current, `Deleted ${current.name}`)
        await changed(tx, current, 'deleted', caller)
      })
    },
  }
}

/**
 * What a save writes into the runner's approval: the version the save makes ('approve'; 'renew'
 * only when the version saved over was approved), nothing ('keep'), or none ('clear').
 */
function approvalOf(runner: Pick<RunnerChoice, 'approval'>) {
  switch (runner.approval) {
    case 'approve':
      return { deviceApprovedVersion: sql<number>`${automations.version} + 1` }
    case 'renew':
      return {
        deviceApprovedVersion: sql<number>`case when ${automations.deviceApprovedVersion} = ${automations.version} then ${automations.version} + 1 else ${automations.deviceApprovedVersion} end`,
      }
    case 'clear':
      return { deviceApprovedVersion: null }
    case 'keep':
      return {}
  }
}

/** The new ways first, then the old ones not among them, at most MAX_TARGET_ALTERNATIVES. */
export function mergedTarget(first: Target, then: Target): Target {
  const seen = new Set(first.map((way) => JSON.stringify(way)))
  return [...first, ...then.filter((way) => !seen.has(JSON.stringify(way)))].slice(0, MAX_TARGET_ALTERNATIVES)
}

export type AutomationService = ReturnType<typeof createAutomationService>
