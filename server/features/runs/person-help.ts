import { and, eq, inArray } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { AppError, NotFound } from '#common/errors.ts'
import { NOT_WAITING, type RunWaiting } from '#common/person-help.ts'
import { MAX_PERSON_WAIT_MINUTES } from '#common/plans.ts'
import type { Db } from '#server/db/client.ts'
import { automationRuns, subscriptionPlans, users, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import type { EventBus, PersonActionEvent } from '#server/features/events/event-bus.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'
import type { WebhookOutbox } from '#server/features/webhooks/webhook-outbox.ts'
import type { Logger } from '#server/logger.ts'

/** What a person did, as the worker running the run hears it. */
export type PersonAction = PersonActionEvent['action']

/**
 * Human takeover of cloud runs (docs/decisions/059). The worker's side: a run asks, waits (the
 * workspace is told: the run's page, an e-mail to everyone who may edit its automations, the
 * run.waiting webhook), hears what a person does in its live view, and stops waiting. The API's
 * side: a member of the workspace acts, only while the run waits.
 */
export function createPersonHelp(deps: {
  db: Db
  events: Pick<EventBus, 'publish' | 'subscribe'>
  webhooks: Pick<WebhookOutbox, 'emitIn'>
  mailer: Pick<Mailer, 'send'>
  publicUrl: string
  logger: Logger
}) {
  const { db, events, webhooks, mailer, publicUrl, logger } = deps
  const runUrl = (runId: string) => new URL(`/dashboard/runs/${runId}`, publicUrl).toString()

  /** Who may act for the workspace: its owner, admins and members (viewers only watch). */
  async function editorsOf(workspaceId: string): Promise<string[]> {
    const rows = await db
      .select({ email: users.email })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), inArray(workspaceMembers.role, ['owner', 'admin', 'member'])))
    return rows.map((row) => row.email)
  }

  /**
   * The run (held by this worker) waits for a person from now until its plan's wait runs out.
   * Answers the wait, or null when the run is no longer this worker's.
   */
  async function ask(runId: string, workerId: string, step: number, message: string, maxMs = Infinity): Promise<RunWaiting | null> {
    const now = new Date()
    const asked = await db.transaction(async (tx) => {
      const [run] = await tx
        .select({ run: automationRuns, minutes: subscriptionPlans.personWaitMinutes })
        .from(automationRuns)
        .innerJoin(workspaces, eq(workspaces.id, automationRuns.workspaceId))
        .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
        .where(and(eq(automationRuns.id, runId), eq(automationRuns.workerId, workerId), eq(automationRuns.status, 'running')))
      if (!run) return null
      const minutes = Math.min(run.minutes ?? MAX_PERSON_WAIT_MINUTES, MAX_PERSON_WAIT_MINUTES)
      const waitMs = Math.min(minutes * 60_000, maxMs)
      const waiting: RunWaiting = { message, step, since: now.toISOString(), until: new Date(now.getTime() + waitMs).toISOString() }
      await tx.update(automationRuns).set({ waiting, updatedAt: now }).where(eq(automationRuns.id, runId))
      await webhooks.emitIn(
        tx,
        run.run.workspaceId,
        'run.waiting',
        {
          run: { id: runId, automationId: run.run.automationId, automationName: run.run.automationName, url: runUrl(runId) },
          ...waiting,
        },
        now,
      )
      return { waiting, run: run.run }
    })
    if (!asked) return null
    events.publish('run', { id: runId, workspaceId: asked.run.workspaceId, status: 'running', automationId: asked.run.automationId })
    const recipients = await editorsOf(asked.run.workspaceId).catch(() => [])
    for (const to of recipients) {
      await mailer
        .send({
          to,
          subject: `A run of “${asked.run.automationName}” is waiting for you`,
          text:
            `The run of “${asked.run.automationName}” stopped at step ${step} and asks a person:\n\n${message}\n\n` +
            `Open the run, act in its live view, then press Continue: ${runUrl(runId)}\n\n` +
            `It fails if nobody does by ${asked.waiting.until} (UTC).\n\n— Aether`,
        })
        .catch((error: unknown) => logger.warn({ err: error, runId }, 'person help: a notice could not be sent'))
    }
    return asked.waiting
  }

  /** The run stopped waiting (a person pressed Continue, the wait ran out, or the run stopped). */
  async function answered(runId: string, workerId: string): Promise<void> {
    const [row] = await db
      .update(automationRuns)
      .set({ waiting: null, updatedAt: new Date() })
      .where(and(eq(automationRuns.id, runId), eq(automationRuns.workerId, workerId)))
      .returning({ workspaceId: automationRuns.workspaceId, automationId: automationRuns.automationId, status: automationRuns.status })
    if (row) events.publish('run', { id: runId, ...row })
  }

  /** The worker hears what people do for this run until it stops listening. */
  function listen(runId: string, onAction: (action: PersonAction, who: string) => void): () => void {
    return events.subscribe('personAction', (event) => {
      if (event.runId === runId) onAction(event.action, event.who)
    })
  }

  /** A member of the run's workspace acts for a run that waits: passed on to its worker. */
  async function act(runId: string, caller: Caller, action: PersonAction): Promise<void> {
    const [run] = await db
      .select({ workspaceId: automationRuns.workspaceId, status: automationRuns.status, waiting: automationRuns.waiting })
      .from(automationRuns)
      .where(eq(automationRuns.id, runId))
    if (!run || run.workspaceId !== caller.workspace.id) throw new NotFound('Run not found')
    if (run.status !== 'running' || !run.waiting) throw new AppError(409, NOT_WAITING, 'RUN_NOT_WAITING')
    events.publish('personAction', { runId, who: caller.email, action })
  }

  return { ask, answered, listen, act }
}

export type PersonHelp = ReturnType<typeof createPersonHelp>
