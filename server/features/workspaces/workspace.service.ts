// Workspaces and the people in them: create, rename, delete, roles, leaving and transfer.
// Over 300 lines: every membership change shares the same locked-team and last-owner checks
// (invitations live in invitation.service.ts).
import { revokeDevices } from '#server/db/revoke-devices.ts'
import { randomUUID } from 'node:crypto'
import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm'
import { Conflict, Forbidden, LimitReached, NotFound } from '#common/errors.ts'
import {
  MAX_WORKSPACES_PER_PERSON,
  requireWorkspaceRole,
  WORKSPACE_ROLE_NAMES,
  type InvitableRole,
  type WorkspaceRole,
  type WorkspaceUpdate,
} from '#common/workspaces.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { workspaceAccessColumns } from '#server/db/workspace-access-columns.ts'
import { apiKeys, devices, subscriptionPlans, subscriptions, users, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import { assertMayRequireTwoFactor } from './two-factor-requirement.ts'

export type Workspace = typeof workspaces.$inferSelect

/** A workspace as one of its people sees it: what it is, their role, its plan and balance. */
export interface WorkspaceAccess {
  id: string
  name: string
  kind: Workspace['kind']
  role: WorkspaceRole
  planSlug: string
  planName: string
  credits: number
  requireTwoFactor: boolean
}

export interface WorkspaceMember {
  userId: string
  email: string
  name: string
  role: WorkspaceRole
  joinedAt: Date
}

/** The person acting in a workspace: who they are, and the access they have there. */
export interface WorkspaceActor extends Actor {
  workspace: WorkspaceAccess
}

const accessColumns = workspaceAccessColumns()

/**
 * Workspaces and the people in them (docs/decisions/021). Every account has a personal workspace
 * with its own id; a subscriber whose plan includes teams creates team workspaces, which are
 * billed on their own. Roles: owner > admin > member > viewer.
 */
export function createWorkspaceService(deps: { db: Db; audit: AuditService; plans: Pick<PlanService, 'allowancesOf'> }) {
  const { db, audit, plans } = deps

  async function accessIn(tx: DbOrTx, userId: string, workspaceId: string): Promise<WorkspaceAccess | null> {
    const [row] = await tx
      .select(accessColumns)
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
      .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.workspaceId, workspaceId)))
    return row ?? null
  }

  /** The team workspace, locked for a change of its people, with the actor's role re-read inside the lock. */
  async function lockedTeam(tx: DbOrTx, actor: WorkspaceActor, needed: WorkspaceRole, what: string): Promise<WorkspaceAccess> {
    await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, actor.workspace.id)).for('update')
    const access = await accessIn(tx, actor.id, actor.workspace.id)
    if (!access) throw new NotFound('Workspace not found')
    requireWorkspaceRole(access.role, needed, what)
    if (access.kind === 'personal') throw new Conflict('A personal workspace is yours alone; create a team workspace to work with others.')
    return access
  }

  async function memberRole(tx: DbOrTx, workspaceId: string, userId: string): Promise<WorkspaceRole | null> {
    const [row] = await tx
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    return row?.role ?? null
  }

  async function ownerCount(tx: DbOrTx, workspaceId: string): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')))
    return row?.n ?? 0
  }

  async function nameOf(tx: DbOrTx, userId: string): Promise<string> {
    const [row] = await tx.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId))
    return row ? row.name || row.email : 'a former member'
  }

  const record = (tx: DbOrTx, actor: WorkspaceActor, entry: Omit<Parameters<AuditService['record']>[2], 'workspaceId'>) =>
    audit.record(tx, actor, { ...entry, workspaceId: actor.workspace.id })

  /** Whether the person owns a workspace whose plan includes team workspaces (Business): who may create one. */
  async function mayCreateTeamsIn(tx: DbOrTx, userId: string): Promise<boolean> {
    const [owned] = await tx
      .select({ id: workspaces.id })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
      .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, 'owner'), eq(subscriptionPlans.teams, true)))
      .limit(1)
    return Boolean(owned)
  }

  /** Takes someone out: their automations stay in the workspace, their keys and devices for it stop working. */
  async function removeIn(tx: DbOrTx, workspaceId: string, userId: string): Promise<void> {
    await tx.delete(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    await revokeDevices(tx, and(eq(devices.workspaceId, workspaceId), eq(devices.userId, userId)))
  }

  return {
    accessIn,
    memberRole,

    /** The personal workspace of a new account (nothing happens when it exists). */
    async createPersonalIn(tx: DbOrTx, userId: string): Promise<void> {
      await tx.insert(workspaces).values({ id: userId, name: 'Personal', kind: 'personal', personalOwnerId: userId }).onConflictDoNothing()
      await tx.insert(workspaceMembers).values({ workspaceId: userId, userId, role: 'owner' }).onConflictDoNothing()
    },

    mayCreateTeams: (userId: string) => mayCreateTeamsIn(db, userId),

    /** The person's access to a workspace, or null when they are not in it. */
    access: (userId: string, workspaceId: string) => accessIn(db, userId, workspaceId),

    /** Every workspace the person is in: their personal one first, then teams by name. */
    async listFor(userId: string): Promise<(WorkspaceAccess & { memberCount: number })[]> {
      const rows = await db
        .select({
          ...accessColumns,
          memberCount: sql<number>`(select count(*)::int from ${workspaceMembers} m where m.workspace_id = ${workspaces.id})`,
        })
        .from(workspaceMembers)
        .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
        .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
        .where(eq(workspaceMembers.userId, userId))
        .orderBy(sql`${workspaces.kind} = 'team'`, asc(workspaces.name), asc(workspaces.createdAt))
      return rows
    },

    /** A team workspace, with its creator as owner; their plan (of any workspace they own) must include teams. */
    async createTeam(actor: Actor, name: string): Promise<WorkspaceAccess> {
      return db.transaction(async (tx) => {
        if (!(await mayCreateTeamsIn(tx, actor.id))) {
          const [unlocking] = await tx
            .select({ name: subscriptionPlans.name })
            .from(subscriptionPlans)
            .where(eq(subscriptionPlans.teams, true))
            .orderBy(asc(subscriptionPlans.price))
            .limit(1)
          throw new LimitReached(
            unlocking
              ? `Team workspaces are part of the ${unlocking.name} plan. Upgrade to create one.`
              : 'Team workspaces are not part of any plan at the moment.',
            'PLAN_LIMIT',
          )
        }
        const [mine] = await tx.select({ n: count() }).from(workspaceMembers).where(eq(workspaceMembers.userId, actor.id))
        if ((mine?.n ?? 0) >= MAX_WORKSPACES_PER_PERSON) {
          throw new LimitReached(`You can be in at most ${MAX_WORKSPACES_PER_PERSON} workspaces.`, 'PLAN_LIMIT')
        }
        const id = randomUUID()
        await tx.insert(workspaces).values({ id, name, kind: 'team' })
        await tx.insert(workspaceMembers).values({ workspaceId: id, userId: actor.id, role: 'owner' })
        const access = await accessIn(tx, actor.id, id)
        if (!access) throw new Error('the new workspace could not be read')
        await record(
          tx,
          { ...actor, workspace: access },
          {
            action: 'workspace.create',
            targetType: 'workspace',
            targetId: id,
            summary: `Created the workspace ${name}`,
          },
        )
        return access
      })
    },

    async update(actor: WorkspaceActor, changes: WorkspaceUpdate): Promise<WorkspaceAccess> {
      return db.transaction(async (tx) => {
        const before = await accessIn(tx, actor.id, actor.workspace.id)
        if (!before) throw new NotFound('Workspace not found')
        requireWorkspaceRole(before.role, 'admin', 'Changing the workspace settings')
        if (changes.name !== undefined && before.kind === 'personal') throw new Conflict('Your personal workspace keeps its name.')
        if (changes.requireTwoFactor !== undefined && changes.requireTwoFactor !== before.requireTwoFactor) {
          await assertMayRequireTwoFactor(tx, actor.id, before)
        }
        await tx
          .update(workspaces)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(workspaces.id, actor.workspace.id))
        const after = (await accessIn(tx, actor.id, actor.workspace.id)) as WorkspaceAccess
        await record(tx, actor, {
          action: 'workspace.update',
          targetType: 'workspace',
          targetId: actor.workspace.id,
          summary: `Changed the workspace settings`,
          before: { name: before.name, requireTwoFactor: before.requireTwoFactor },
          after: { name: after.name, requireTwoFactor: after.requireTwoFactor },
        })
        return after
      })
    },

    /** Deletes a team workspace and everything in it; its owner only, never with a live subscription. */
    async remove(actor: WorkspaceActor): Promise<void> {
      await db.transaction(async (tx) => {
        const access = await lockedTeam(tx, actor, 'owner', 'Deleting the workspace')
        const [live] = await tx
          .select({ id: subscriptions.id })
          .from(subscriptions)
          .where(and(eq(subscriptions.workspaceId, access.id), ne(subscriptions.status, 'canceled')))
          .limit(1)
        if (live) throw new Conflict('This workspace has a subscription: cancel it on the Billing page before deleting the workspace.')
        await record(tx, actor, {
          action: 'workspace.delete',
          targetType: 'workspace',
          targetId: access.id,
          summary: `Deleted the workspace ${access.name}`,
        })
        await tx.delete(workspaces).where(eq(workspaces.id, access.id))
      })
    },

    async members(actor: WorkspaceActor): Promise<WorkspaceMember[]> {
      return db
        .select({
          userId: users.id,
          email: users.email,
          name: users.name,
          role: workspaceMembers.role,
          joinedAt: workspaceMembers.createdAt,
        })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(eq(workspaceMembers.workspaceId, actor.workspace.id))
        .orderBy(
          sql`case ${workspaceMembers.role} when 'owner' then 0 when 'admin' then 1 when 'member' then 2 else 3 end`,
          asc(users.email),
        )
    },

    /** Admins change members' and viewers' roles; only an owner changes an admin's, or steps down while another owner stays. */
    async changeRole(actor: WorkspaceActor, userId: string, role: InvitableRole): Promise<void> {
      await db.transaction(async (tx) => {
        const access = await lockedTeam(tx, actor, 'admin', 'Changing roles')
        const current = await memberRole(tx, access.id, userId)
        if (!current) throw new NotFound('Member not found')
        if (current === role) return
        if ((current === 'owner' || current === 'admin' || role === 'admin') && access.role !== 'owner') {
          throw new Forbidden('Only an owner can change who is an admin or an owner.')
        }
        if (current === 'owner' && (await ownerCount(tx, access.id)) <= 1) {
          throw new Conflict('A workspace needs an owner: transfer ownership to someone else first.')
        }
        await tx
          .update(workspaceMembers)
          .set({ role })
          .where(and(eq(workspaceMembers.workspaceId, access.id), eq(workspaceMembers.userId, userId)))
        await record(tx, actor, {
          action: 'member.role',
          targetType: 'member',
          targetId: userId,
          summary: `Changed ${await nameOf(tx, userId)}'s role from ${WORKSPACE_ROLE_NAMES[current]} to ${WORKSPACE_ROLE_NAMES[role]}`,
          before: { role: current },
          after: { role },
        })
      })
    },

    /** Removes someone (not the last owner; owners only by an owner). What they built stays. */
    async removeMember(actor: WorkspaceActor, userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const leaving = userId === actor.id
        const access = await lockedTeam(tx, actor, leaving ? 'viewer' : 'admin', 'Removing members')
        const current = await memberRole(tx, access.id, userId)
        if (!current) throw new NotFound('Member not found')
        if (!leaving && (current === 'owner' || current === 'admin') && access.role !== 'owner') {
          throw new Forbidden('Only an owner can remove an admin or an owner.')
        }
        if (current === 'owner' && (await ownerCount(tx, access.id)) <= 1) {
          throw new Conflict(
            leaving
              ? 'You are the last owner: transfer ownership to someone else, or delete the workspace.'
              : 'A workspace needs an owner: transfer ownership first.',
          )
        }
        const name = await nameOf(tx, userId)
        await removeIn(tx, access.id, userId)
        await record(tx, actor, {
          action: leaving ? 'member.leave' : 'member.remove',
          targetType: 'member',
          targetId: userId,
          summary: leaving ? `${name} left the workspace` : `Removed ${name} from the workspace`,
          before: { role: current },
        })
      })
    },

    /** Makes another member an owner; the current owner stays as an admin. */
    async transferOwnership(actor: WorkspaceActor, userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const access = await lockedTeam(tx, actor, 'owner', 'Transferring ownership')
        if (userId === actor.id) throw new Conflict('You already own this workspace.')
        const current = await memberRole(tx, access.id, userId)
        if (!current) throw new NotFound('Member not found')
        await tx
          .update(workspaceMembers)
          .set({ role: 'owner' })
          .where(and(eq(workspaceMembers.workspaceId, access.id), eq(workspaceMembers.userId, userId)))
        await tx
          .update(workspaceMembers)
          .set({ role: 'admin' })
          .where(and(eq(workspaceMembers.workspaceId, access.id), eq(workspaceMembers.userId, actor.id)))
        await record(tx, actor, {
          action: 'workspace.transfer',
          targetType: 'member',
          targetId: userId,
          summary: `Transferred ownership to ${await nameOf(tx, userId)}`,
        })
      })
    },

    /** Seats a team workspace's plan includes, and how many are taken (members and pending invitations). */
    async seatsIn(tx: DbOrTx, workspaceId: string, pendingInvitations: number): Promise<{ plan: string; seats: number; taken: number }> {
      const allowances = await plans.allowancesOf(workspaceId, tx)
      const [row] = await tx.select({ n: count() }).from(workspaceMembers).where(eq(workspaceMembers.workspaceId, workspaceId))
      return { plan: allowances.plan, seats: allowances.seats, taken: (row?.n ?? 0) + pendingInvitations }
    },

    lockedTeam,
    record,
  }
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>
