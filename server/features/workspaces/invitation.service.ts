import { createHash, randomBytes } from 'node:crypto'
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import { Conflict, Forbidden, LimitReached, NotFound } from '#common/errors.ts'
import {
  INVITATION_TTL_DAYS,
  MAX_PENDING_INVITATIONS,
  WORKSPACE_ROLE_NAMES,
  type InvitationCreate,
  type InvitableRole,
} from '#common/workspaces.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { users, workspaceInvitations, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'
import type { WorkspaceActor, WorkspaceService } from './workspace.service.ts'
import { isUuid } from '#common/ids.ts'
import { requireVerifiedEmail, type VerifiablePerson } from '#common/email-verification.ts'

export interface PendingInvitation {
  id: string
  email: string
  role: InvitableRole
  invitedBy: string | null
  expiresAt: Date
  createdAt: Date
}

/** What the invitation page shows before the invitee accepts. */
export interface InvitationPreview {
  workspaceName: string
  email: string
  role: InvitableRole
  invitedBy: string | null
  status: 'pending' | 'expired' | 'accepted' | 'revoked'
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')
const pendingWhere = (now: Date) =>
  and(isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt), gt(workspaceInvitations.expiresAt, now))

/**
 * Invitations to a team workspace: an e-mailed link that works once, for INVITATION_TTL_DAYS, for
 * the address it was sent to. A pending invitation takes a seat, so a plan's seats hold however
 * many invitations are out.
 */
export function createInvitationService(deps: { db: Db; workspaces: WorkspaceService; mailer: Mailer; publicUrl: string }) {
  const { db, workspaces: workspaceService, mailer, publicUrl } = deps

  async function pendingCount(tx: DbOrTx, workspaceId: string, exceptEmail?: string): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(workspaceInvitations)
      .where(
        and(
          eq(workspaceInvitations.workspaceId, workspaceId),
          pendingWhere(new Date()),
          exceptEmail ? sql`${workspaceInvitations.email} <> ${exceptEmail}` : undefined,
        ),
      )
    return row?.n ?? 0
  }

  async function checkSeats(tx: DbOrTx, workspaceId: string, pending: number): Promise<void> {
    const { plan, seats, taken } = await workspaceService.seatsIn(tx, workspaceId, pending)
    if (taken < seats) return
    throw new LimitReached(
      `The ${plan} plan includes ${seats} ${seats === 1 ? 'seat' : 'seats'} per workspace, and all are taken (members and pending invitations). Upgrade the workspace's plan or remove someone first.`,
      'PLAN_LIMIT',
    )
  }

  return {
    /** The workspace's seats and how many members and pending invitations take (the Team page's figure). */
    seats: async (workspaceId: string) => workspaceService.seatsIn(db, workspaceId, await pendingCount(db, workspaceId)),

    /**
     * Invites an address (or sends a pending invitation again with a new link). Owners and admins
     * only, with a verified address: the invitation is an e-mail to someone else.
     */
    async invite(actor: WorkspaceActor & VerifiablePerson, input: InvitationCreate): Promise<PendingInvitation> {
      const token = randomBytes(32).toString('base64url')
      const invitation = await db.transaction(async (tx) => {
        const access = await workspaceService.lockedTeam(tx, actor, 'admin', 'Inviting people')
        requireVerifiedEmail(actor, { kind: 'invite' })
        if (input.role === 'admin' && access.role !== 'owner') throw new Forbidden('Only an owner can invite admins.')
        const [already] = await tx
          .select({ id: users.id })
          .from(workspaceMembers)
          .innerJoin(users, eq(users.id, workspaceMembers.userId))
          .where(and(eq(workspaceMembers.workspaceId, access.id), eq(users.email, input.email)))
        if (already) throw new Conflict(`${input.email} is already in this workspace.`)
        const pending = await pendingCount(tx, access.id, input.email)
        if (pending >= MAX_PENDING_INVITATIONS)
          throw new LimitReached(`At most ${MAX_PENDING_INVITATIONS} invitations can be pending at once.`, 'PLAN_LIMIT')
        await checkSeats(tx, access.id, pending)
        // A new link replaces any earlier one to the same address.
        await tx
          .update(workspaceInvitations)
          .set({ revokedAt: new Date() })
          .where(
            and(eq(workspaceInvitations.workspaceId, access.id), eq(workspaceInvitations.email, input.email), pendingWhere(new Date())),
          )
        const [row] = await tx
          .insert(workspaceInvitations)
          .values({
            workspaceId: access.id,
            email: input.email,
            role: input.role,
            tokenHash: hashOf(token),
            invitedBy: actor.id,
            expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600 * 1000),
          })
          .returning()
        if (!row) throw new Error('the invitation could not be stored')
        await workspaceService.record(tx, actor, {
          action: 'invitation.create',
          targetType: 'invitation',
          targetId: row.id,
          summary: `Invited ${input.email} as ${WORKSPACE_ROLE_NAMES[input.role]}`,
        })
        return { row, workspaceName: access.name }
      })
      await mailer.send({
        to: input.email,
        subject: `${actor.email} invited you to ${invitation.workspaceName} on Aether`,
        text: `${actor.email} invited you to join the workspace "${invitation.workspaceName}" on Aether as ${WORKSPACE_ROLE_NAMES[input.role].toLowerCase()}.\n\nAccept the invitation here (sign up or sign in with ${input.email}):\n\n${publicUrl}/invitations/accept?token=${encodeURIComponent(token)}\n\nThe link works once, for ${INVITATION_TTL_DAYS} days. If you did not expect it, you can ignore this e-mail.\n\n— Aether`,
      })
      const { row } = invitation
      return { id: row.id, email: row.email, role: row.role, invitedBy: actor.email, expiresAt: row.expiresAt, createdAt: row.createdAt }
    },

    async listPending(actor: WorkspaceActor): Promise<PendingInvitation[]> {
      return db
        .select({
          id: workspaceInvitations.id,
          email: workspaceInvitations.email,
          role: workspaceInvitations.role,
          invitedBy: users.email,
          expiresAt: workspaceInvitations.expiresAt,
          createdAt: workspaceInvitations.createdAt,
        })
        .from(workspaceInvitations)
        .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
        .where(and(eq(workspaceInvitations.workspaceId, actor.workspace.id), pendingWhere(new Date())))
        .orderBy(desc(workspaceInvitations.createdAt))
    },

    async revoke(actor: WorkspaceActor, invitationId: string): Promise<void> {
      if (!isUuid(invitationId)) throw new NotFound('Invitation not found')
      await db.transaction(async (tx) => {
        const access = await workspaceService.lockedTeam(tx, actor, 'admin', 'Revoking invitations')
        const [row] = await tx
          .update(workspaceInvitations)
          .set({ revokedAt: new Date() })
          .where(and(eq(workspaceInvitations.id, invitationId), eq(workspaceInvitations.workspaceId, access.id), pendingWhere(new Date())))
          .returning({ email: workspaceInvitations.email })
        if (!row) throw new NotFound('Invitation not found')
        await workspaceService.record(tx, actor, {
          action: 'invitation.revoke',
          targetType: 'invitation',
          targetId: invitationId,
          summary: `Revoked the invitation of ${row.email}`,
        })
      })
    },

    /** What an invitation link leads to, for its page; null for a link that never existed. */
    async preview(token: string): Promise<InvitationPreview | null> {
      const [row] = await db
        .select({ invitation: workspaceInvitations, workspaceName: workspaces.name, invitedBy: users.email })
        .from(workspaceInvitations)
        .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
        .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
        .where(eq(workspaceInvitations.tokenHash, hashOf(token)))
      if (!row) return null
      const { invitation } = row
      const status = invitation.acceptedAt
        ? 'accepted'
        : invitation.revokedAt
          ? 'revoked'
          : invitation.expiresAt <= new Date()
            ? 'expired'
            : 'pending'
      return { workspaceName: row.workspaceName, email: invitation.email, role: invitation.role, invitedBy: row.invitedBy, status }
    },

    /** Joins the workspace with the invitation's role; the link is used up. Returns the workspace id. */
    async accept(token: string, user: { id: string; email: string }): Promise<string> {
      return db.transaction(async (tx) => {
        // The workspace first, then the invitation: the order invite() locks them in (no deadlock).
        const [target] = await tx
          .select({ workspaceId: workspaceInvitations.workspaceId })
          .from(workspaceInvitations)
          .where(eq(workspaceInvitations.tokenHash, hashOf(token)))
        if (target) await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, target.workspaceId)).for('update')
        const [invitation] = await tx
          .select()
          .from(workspaceInvitations)
          .where(eq(workspaceInvitations.tokenHash, hashOf(token)))
          .for('update')
        if (!invitation || invitation.revokedAt)
          throw new NotFound('This invitation link is not valid: it was withdrawn or replaced by a newer one.')
        if (invitation.acceptedAt) throw new Conflict('This invitation link was already used.')
        if (invitation.expiresAt <= new Date()) throw new Conflict('This invitation has expired: ask for a new one.')
        if (invitation.email !== user.email.toLowerCase()) {
          throw new Forbidden(`This invitation was sent to ${invitation.email}. Sign in with that address to accept it.`)
        }
        const current = await workspaceService.memberRole(tx, invitation.workspaceId, user.id)
        if (!current) {
          await checkSeats(tx, invitation.workspaceId, await pendingCount(tx, invitation.workspaceId, invitation.email))
          await tx.insert(workspaceMembers).values({ workspaceId: invitation.workspaceId, userId: user.id, role: invitation.role })
        }
        await tx
          .update(workspaceInvitations)
          .set({ acceptedAt: new Date(), acceptedBy: user.id })
          .where(eq(workspaceInvitations.id, invitation.id))
        const access = await workspaceService.accessIn(tx, user.id, invitation.workspaceId)
        if (access) {
          await workspaceService.record(
            tx,
            { id: user.id, email: user.email, workspace: access },
            {
              action: 'invitation.accept',
              targetType: 'member',
              targetId: user.id,
              summary: `${user.email} joined as ${WORKSPACE_ROLE_NAMES[access.role]}`,
            },
          )
        }
        return invitation.workspaceId
      })
    },
  }
}

export type InvitationService = ReturnType<typeof createInvitationService>
