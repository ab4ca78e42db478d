import { and, eq, inArray, isNull, like } from 'drizzle-orm'
import type { RunTrigger } from '#common/automations.ts'
import type { TimelineEntry, TimelineKind } from '#common/user-timeline.ts'
import type { Db } from '#server/db/client.ts'
import { auditLog, automationRuns, payments, sessions, workspaceMembers } from '#server/db/schema/index.ts'
import { afterPosition, positionOrder, positionTime, type TimelinePosition } from './timeline-cursor.ts'

/** An entry with its position: where it sorts, and what the next page's cursor is made of. */
export type PositionedEntry = TimelineEntry & { position: TimelinePosition }

/** What every source is asked: whose timeline, the page's cursor, and at most how many rows. */
export interface SourceQuery {
  userId: string
  cursor: TimelinePosition | null
  limit: number
}

type Source = (db: Db, query: SourceQuery) => Promise<PositionedEntry[]>

const entry = (
  kind: TimelineKind,
  row: { id: string; at: Date; atKey: string },
  fields: Pick<TimelineEntry, 'summary'> & Partial<Pick<TimelineEntry, 'detail' | 'status' | 'runId'>>,
): PositionedEntry => ({
  id: `${kind}:${row.id}`,
  kind,
  at: row.at.toISOString(),
  summary: fields.summary,
  detail: fields.detail ?? null,
  status: fields.status ?? null,
  runId: fields.runId ?? null,
  position: { at: row.atKey, kind, id: row.id },
})

/** How a run was started, in words. */
const STARTED_BY: Record<RunTrigger, string> = {
  manual: 'started by hand',
  schedule: 'started by its schedule',
  extension: 'started in the extension',
  desktop: 'started in the desktop app',
  url: 'started by its trigger URL',
  api: 'started through the API',
}

const shortened = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** The workspaces the member owns (their personal one, and teams they pay for): whose plan and payments are theirs. */
const ownedWorkspaces = (db: Db, userId: string) =>
  db
    .select({ id: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, 'owner')))

/**
 * Sign-ins: the sessions the account has now (an ended session is deleted, and with it its sign-in).
 * An admin's view as the member is not theirs: the admin actions list it (docs/decisions/064).
 */
const signIns: Source = async (db, { userId, cursor, limit }) => {
  const rows = await db
    .select({
      id: sessions.id,
      at: sessions.createdAt,
      atKey: positionTime(sessions.createdAt),
      ip: sessions.ipAddress,
      agent: sessions.userAgent,
    })
    .from(sessions)
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.impersonatedBy), afterPosition(cursor, 'sign-in', sessions.createdAt, sessions.id)),
    )
    .orderBy(...positionOrder(sessions.createdAt, sessions.id))
    .limit(limit)
  return rows.map((row) =>
    entry('sign-in', row, {
      summary: 'Signed in',
      detail: shortened([row.ip ? `from ${row.ip}` : null, row.agent].filter(Boolean).join(', ')) || null,
    }),
  )
}

/** Plan and subscription changes of the workspaces they own, as the payment provider's webhooks recorded them. */
const planChanges: Source = async (db, { userId, cursor, limit }) => {
  const rows = await db
    .select({ id: auditLog.id, at: auditLog.createdAt, atKey: positionTime(auditLog.createdAt), summary: auditLog.summary })
    .from(auditLog)
    .where(
      and(
        inArray(auditLog.workspaceId, ownedWorkspaces(db, userId)),
        eq(auditLog.targetType, 'subscription'),
        like(auditLog.action, 'subscription.%'),
        afterPosition(cursor, 'plan', auditLog.createdAt, auditLog.id),
      ),
    )
    .orderBy(...positionOrder(auditLog.createdAt, auditLog.id))
    .limit(limit)
  return rows.map((row) => entry('plan', row, { summary: row.summary }))
}

/** Runs they started (or their schedules and trigger URLs started), in any workspace, with the outcome. */
const runs: Source = async (db, { userId, cursor, limit }) => {
  const rows = await db
    .select({
      id: automationRuns.id,
      at: automationRuns.createdAt,
      atKey: positionTime(automationRuns.createdAt),
      name: automationRuns.automationName,
      status: automationRuns.status,
      trigger: automationRuns.trigger,
      runner: automationRuns.runner,
      error: automationRuns.error,
    })
    .from(automationRuns)
    .where(and(eq(automationRuns.userId, userId), afterPosition(cursor, 'run', automationRuns.createdAt, automationRuns.id)))
    .orderBy(...positionOrder(automationRuns.createdAt, automationRuns.id))
    .limit(limit)
  return rows.map((row) =>
    entry('run', row, {
      summary: `Ran ${row.name}`,
      detail: shortened(
        [`${row.runner === 'cloud' ? 'In the cloud' : 'On their device'}, ${STARTED_BY[row.trigger]}`, row.error]
          .filter(Boolean)
          .join(': '),
      ),
      status: row.status,
      runId: row.id,
    }),
  )
}

/** Payments of the workspaces they own. */
const paymentsOf: Source = async (db, { userId, cursor, limit }) => {
  const rows = await db
    .select({
      id: payments.id,
      at: payments.createdAt,
      atKey: positionTime(payments.createdAt),
      amount: payments.amount,
      currency: payments.currency,
      plan: payments.planSlug,
      status: payments.status,
    })
    .from(payments)
    .where(
      and(inArray(payments.workspaceId, ownedWorkspaces(db, userId)), afterPosition(cursor, 'payment', payments.createdAt, payments.id)),
    )
    .orderBy(...positionOrder(payments.createdAt, payments.id))
    .limit(limit)
  return rows.map((row) =>
    entry('payment', row, {
      summary: `${row.status === 'success' ? 'Paid' : row.status === 'pending' ? 'Payment pending' : 'Payment failed'}: ${row.amount.toFixed(2)} ${row.currency}${row.plan ? ` for ${row.plan}` : ''}`,
      status: row.status,
    }),
  )
}

/** What admins did to the account (the audit log's entries about this user). */
const adminActions: Source = async (db, { userId, cursor, limit }) => {
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.createdAt,
      atKey: positionTime(auditLog.createdAt),
      summary: auditLog.summary,
      actor: auditLog.actorEmail,
    })
    .from(auditLog)
    .where(
      and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, userId), afterPosition(cursor, 'admin', auditLog.createdAt, auditLog.id)),
    )
    .orderBy(...positionOrder(auditLog.createdAt, auditLog.id))
    .limit(limit)
  return rows.map((row) => entry('admin', row, { summary: row.summary, detail: `By ${row.actor}` }))
}

/** Every source of a timeline, each one bounded query. */
export const TIMELINE_SOURCES: readonly Source[] = [signIns, planChanges, runs, paymentsOf, adminActions]
