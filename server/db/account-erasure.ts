import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from './client.ts'
import { auditLog, subscriptions, users, workspaceMembers, workspaces } from './schema/index.ts'

// What deleting an account does to the database, for both ways an account goes (docs/decisions/065):
// a member's own erasure after the grace period (account-deletion.service.ts) and an admin's
// "Delete User" (user-admin.service.ts). One place, so the two cannot drift apart.

type Reader = Pick<DbOrTx, 'select'>

/** The subscription statuses that may still charge: cancelled at the provider before an account goes. */
export const CHARGING_STATUSES = ['active', 'trialing', 'past_due', 'paused']

/**
 * Locks the member's team workspaces, in one order for every transaction, so that an owner leaving
 * or someone joining meanwhile waits for us and is then seen by the queries below.
 */
export async function lockTeamsOf(tx: Reader, userId: string): Promise<void> {
  await tx
    .select({ id: workspaces.id })
    .from(workspaces)
    .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, workspaces.id))
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaces.kind, 'team')))
    .orderBy(workspaces.id)
    .for('update', { of: workspaces })
}

/**
 * The names of the team workspaces the member alone owns while someone else still works in them:
 * the account cannot go before one of those people owns it (or they are removed).
 */
export async function teamsToTransferIn(tx: Reader, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ name: workspaces.name })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        eq(workspaceMembers.role, 'owner'),
        eq(workspaces.kind, 'team'),
        sql`(select count(*) from ${workspaceMembers} o where o.workspace_id = ${workspaces.id} and o.role = 'owner') = 1`,
        sql`(select count(*) from ${workspaceMembers} m where m.workspace_id = ${workspaces.id}) > 1`,
      ),
    )
    .orderBy(asc(workspaces.name))
  return rows.map((row) => row.name)
}

/** The ids of the team workspaces nobody but the member is in: they go with the account. */
export async function soloTeamsOf(tx: Reader, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: workspaces.id })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        eq(workspaces.kind, 'team'),
        sql`(select count(*) from ${workspaceMembers} m where m.workspace_id = ${workspaces.id}) = 1`,
      ),
    )
    .orderBy(workspaces.id)
  return rows.map((row) => row.id)
}

/** How many subscriptions of these workspaces may still charge. */
export async function chargingSubscriptionsOf(tx: Reader, workspaceIds: string[]): Promise<number> {
  if (!workspaceIds.length) return 0
  const rows = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(inArray(subscriptions.workspaceId, workspaceIds), inArray(subscriptions.status, CHARGING_STATUSES)))
  return rows.length
}

/**
 * Deletes the account, its personal workspace and the team workspaces `soloTeamIds` (which only it
 * is in), inside the caller's transaction; everything else hangs on them (ON DELETE CASCADE:
 * sessions, sign-in methods, profile, automations, runs, keys, devices, payments, ledger, exports)
 * or lets go of them (SET NULL: runs and automations it made in teams that stay, blog posts).
 *
 * The audit log keeps its entries: they are unlinked from the account and the deleted workspaces
 * here, first, rather than by their foreign keys' SET NULL. Deleting the account would set both on
 * one row, and once that row was changed earlier in this transaction (an anonymised address),
 * PostgreSQL checks the key not yet set against a workspace already gone, and refuses.
 */
export async function deleteAccountIn(tx: DbOrTx, userId: string, soloTeamIds: string[]): Promise<void> {
  const workspaceIds = [userId, ...soloTeamIds]
  await tx.update(auditLog).set({ actorId: null }).where(eq(auditLog.actorId, userId))
  await tx.update(auditLog).set({ workspaceId: null }).where(inArray(auditLog.workspaceId, workspaceIds))
  if (soloTeamIds.length) await tx.delete(workspaces).where(and(inArray(workspaces.id, soloTeamIds), eq(workspaces.kind, 'team')))
  await tx.delete(users).where(eq(users.id, userId))
}
