import { createHash, randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { NotFound, Unauthorized } from '#common/errors.ts'
import type { RunInputs } from '#common/run-inputs.ts'
import { TRIGGER_RATE_LIMIT, TRIGGER_SECRET_PREFIX, triggerPath } from '#common/triggers.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import { requireVerifiedEmail } from '#common/email-verification.ts'
import type { Db } from '#server/db/client.ts'
import { automations, automationTriggers } from '#server/db/schema/index.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { Run, RunService } from '#server/features/runs/run.service.ts'

/** The run a trigger started. */
export type TriggeredRun = Pick<Run, 'id' | 'automationId' | 'status' | 'inputs' | 'createdAt'>
export type TriggerStatus = { hint: string; createdAt: Date; lastUsedAt: Date | null }
/** A new trigger URL: the only time its secret (the URL's last part) is known. */
export type IssuedTrigger = TriggerStatus & { secret: string; url: string }

/** What issue() makes: anything else is refused without a lookup. */
const SECRET_SHAPE = new RegExp(`^${TRIGGER_SECRET_PREFIX}[A-Za-z0-9_-]{32}$`)

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/** Any other answer would tell a guesser which secrets once existed. */
const INVALID = 'This trigger URL is not valid: it was revoked, rotated or never existed.'

/**
 * Trigger URLs (docs/decisions/027): a secret per automation whose holder may start a cloud run
 * of it with inputs, without an account. The secret is shown once; only its hash is kept.
 * Runs it starts are the creator's (or, once they are gone, nobody's), in the automation's
 * workspace, under that workspace's plan, caps and credits like any other run.
 */
export function createTriggerService(deps: {
  db: Db
  runs: Pick<RunService, 'start'>
  plans: Pick<PlanService, 'requireFeature'>
  rateLimits: Pick<RateLimitService, 'consume'>
  activity: Pick<AuditService, 'record'>
  publicUrl: string
}) {
  const { db, runs, plans, rateLimits, activity, publicUrl } = deps

  async function automationIn(automationId: string, caller: Caller) {
    const [automation] = await db
      .select({ id: automations.id, name: automations.name })
      .from(automations)
      .where(and(eq(automations.id, automationId), eq(automations.workspaceId, caller.workspace.id)))
    if (!automation) throw new NotFound('Automation not found')
    return automation
  }

  const statusOf = (row: typeof automationTriggers.$inferSelect): TriggerStatus => ({
    hint: row.hint,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  })

  return {
    /** The automation's trigger URL, if it has one (never its secret). */
    async status(automationId: string, caller: Caller): Promise<TriggerStatus | null> {
      await automationIn(automationId, caller)
      const [row] = await db.select().from(automationTriggers).where(eq(automationTriggers.automationId, automationId))
      return row ? statusOf(row) : null
    },

    /** A new secret for the automation: its first, or one that replaces (rotates) the one before. */
    async issue(automationId: string, caller: Caller): Promise<IssuedTrigger> {
      requireWorkspaceRole(caller.workspace.role, 'member', 'Managing trigger URLs')
      // Anyone holding the URL starts cloud runs: not before the member's own address is verified.
      requireVerifiedEmail(caller, { kind: 'trigger' })
      const automation = await automationIn(automationId, caller)
      await plans.requireFeature(caller.workspace.id, 'triggerUrls')
      const secret = `${TRIGGER_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`
      const values = {
        secretHash: sha256(secret),
        hint: secret.slice(-4),
        createdBy: caller.id || null,
        createdAt: new Date(),
        lastUsedAt: null,
      }
      return db.transaction(async (tx) => {
        const [existing] = await tx
          .select({ id: automationTriggers.id })
          .from(automationTriggers)
          .where(eq(automationTriggers.automationId, automationId))
          .for('update')
        const [row] = existing
          ? await tx.update(automationTriggers).set(values).where(eq(automationTriggers.id, existing.id)).returning()
          : await tx
              .insert(automationTriggers)
              .values({ ...values, automationId, workspaceId: caller.workspace.id })
              .returning()
        if (!row) throw new Error('trigger upsert returned nothing')
        await activity.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: existing ? 'trigger.rotate' : 'trigger.create',
          targetType: 'automation',
          targetId: automationId,
          summary: `${existing ? 'Rotated the trigger URL of' : 'Created a trigger URL for'} ${automation.name}`,
        })
        return { ...statusOf(row), secret, url: `${publicUrl}${triggerPath(secret)}` }
      })
    },

    /** Revokes the automation's trigger URL: its secret stops working at once. */
    async revoke(automationId: string, caller: Caller): Promise<void> {
      requireWorkspaceRole(caller.workspace.role, 'member', 'Managing trigger URLs')
      const automation = await automationIn(automationId, caller)
      await db.transaction(async (tx) => {
        const [row] = await tx.delete(automationTriggers).where(eq(automationTriggers.automationId, automationId)).returning()
        if (!row) throw new NotFound('This automation has no trigger URL.')
        await activity.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: 'trigger.revoke',
          targetType: 'automation',
          targetId: automationId,
          summary: `Revoked the trigger URL of ${automation.name}`,
        })
      })
    },

    /**
     * Starts a cloud run for whoever holds the secret, with the inputs they give; `readInputs`
     * (the request body) is read only once the secret was accepted.
     */
    async fire(secret: string, readInputs: () => Promise<RunInputs>): Promise<TriggeredRun> {
      const [trigger] = SECRET_SHAPE.test(secret)
        ? await db
            .select()
            .from(automationTriggers)
            .where(eq(automationTriggers.secretHash, sha256(secret)))
        : []
      if (!trigger) throw new Unauthorized(INVALID)
      await rateLimits.consume(`trigger:${trigger.id}`, {
        ...TRIGGER_RATE_LIMIT,
        message: `This trigger URL may start at most ${TRIGGER_RATE_LIMIT.limit} runs a minute. Please retry later.`,
      })
      // The plan may have changed since the URL was made.
      await plans.requireFeature(trigger.workspaceId, 'triggerUrls')
      const inputs = await readInputs()
      const caller: Caller = {
        id: trigger.createdBy ?? '',
        email: 'the trigger URL',
        // Not a person asking: the run service reads the creator's own verification (unverified-allowance.ts).
        emailVerified: false,
        role: 'user',
        workspace: { id: trigger.workspaceId, role: 'member' },
      }
      const run = await runs.start(trigger.automationId, caller, { runner: 'cloud', trigger: 'url', inputs })
      await db.update(automationTriggers).set({ lastUsedAt: new Date() }).where(eq(automationTriggers.id, trigger.id))
      return run
    },
  }
}

export type TriggerService = ReturnType<typeof createTriggerService>
