import { randomBytes } from 'node:crypto'
import { and, eq, inArray, or } from 'drizzle-orm'
import type { AdminEmail, AdminUserCreate, AdminUserUpdate } from '#common/users.ts'
import { Conflict, NotFound, ValidationError } from '#common/errors.ts'
import type { Auth } from '#server/better-auth.ts'
import type { Db, Tx } from '#server/db/client.ts'
import {
  accounts,
  automationRuns,
  passkeys,
  profiles,
  sessions,
  subscriptionPlans,
  twoFactors,
  users,
  workspaces,
} from '#server/db/schema/index.ts'
import { profileColumns } from '#server/db/profile-columns.ts'
import { deleteAccountIn, lockTeamsOf, soloTeamsOf, teamsToTransferIn } from '#server/db/account-erasure.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'
import type { CreditService } from '#server/features/credits/credit.service.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'
import type { DataExportService } from '#server/features/account-data/data-export.service.ts'
import type { RunFiles } from '#server/features/runs/run-files.ts'
import { hashPassword } from '#server/password-hashing.ts'
import type { UserService } from './user.service.ts'

/** An account's sessions, and the views as members it holds as an admin (docs/decisions/064). */
const signedInAs = (id: string) => or(eq(sessions.userId, id), eq(sessions.impersonatedBy, id))

/**
 * What an admin does to accounts: edit (name, role, plan, credits, phone), create, delete, set a
 * password, write to a user. Each change and its audit entry commit together. Nobody can remove
 * the last admin, and an admin cannot demote or delete themselves.
 */
export function createUserAdminService(deps: {
  db: Db
  auth: Auth
  users: UserService
  credits: CreditService
  audit: AuditService
  mailer: Mailer
  /** Ends the workspaces' subscriptions at the provider now; throws when it cannot. */
  cancelSubscriptions: (workspaceIds: string[]) => Promise<number>
  runFiles: Pick<RunFiles, 'remove'>
  exports: Pick<DataExportService, 'idsOf' | 'removeFiles'>
}) {
  const { db, auth, users: userQueries, credits, audit, mailer } = deps

  async function requireUser(id: string) {
    const user = await userQueries.get(id)
    if (!user) throw new NotFound('User not found')
    return user
  }

  /**
   * Whether the account may be deleted (it exists, is not the last admin, and owns no team others
   * work in alone), with its teams locked; the ids of the team workspaces only it is in.
   */
  async function deletableAccount(tx: Tx, id: string): Promise<string[]> {
    const admins = await adminCount(tx)
    const { profile, user } = await lockedAccount(tx, id)
    if (!user) throw new NotFound('User not found')
    if (profile?.role === 'admin' && admins <= 1) throw new Conflict('This is the last admin and cannot be deleted.')
    await lockTeamsOf(tx, id)
    const orphaned = await teamsToTransferIn(tx, id)
    if (orphaned.length) {
      const named = orphaned.length === 1 ? `the team workspace ${orphaned[0]}` : `the team workspaces ${orphaned.join(', ')}`
      throw new Conflict(`${user.email} is the only owner of ${named}, where others still work: make one of them its owner first.`)
    }
    return soloTeamsOf(tx, id)
  }

  /** Locks every admin's profile, so two admins demoting each other at once cannot leave none. */
  async function adminCount(tx: Pick<Db, 'select'>): Promise<number> {
    const admins = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.role, 'admin')).orderBy(profiles.id).for('update')
    return admins.length
  }

  /** The account's profile (with its personal workspace's plan and credits), locked, and its e-mail. */
  async function lockedAccount(tx: Pick<Db, 'select'>, id: string) {
    const [profile] = await tx
      .select(profileColumns)
      .from(profiles)
      .innerJoin(workspaces, eq(workspaces.id, profiles.id))
      .where(eq(profiles.id, id))
      .for('update', { of: profiles })
    const [user] = await tx.select({ email: users.email, suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, id))
    return { profile, user }
  }

  return {
    async update(actor: Actor, id: string, changes: AdminUserUpdate) {
      await db.transaction(async (tx) => {
        // Admins are locked before the target (one order for every transaction: no deadlock).
        const admins = changes.role === 'user' ? await adminCount(tx) : null
        const { profile, user } = await lockedAccount(tx, id)
        if (!profile || !user) throw new NotFound('User not found')
        const before: Record<string, unknown> = {}
        const after: Record<string, unknown> = {}

        if (changes.role !== undefined && changes.role !== profile.role) {
          if (changes.role === 'user') {
            if (id === actor.id) throw new Conflict('You cannot remove your own admin role.')
            if ((admins ?? 0) <= 1) throw new Conflict('This is the last admin: make someone else an admin first.')
          }
          // An admin is never suspended (docs/decisions/062).
          if (changes.role === 'admin' && user.suspendedAt) throw new Conflict(`${user.email} is suspended: unsuspend them first.`)
          before.role = profile.role
          after.role = changes.role
        }
        if (changes.plan !== undefined && changes.plan !== profile.subscriptionPlan) {
          // Shared lock: a delete of this plan waits for us (then sees the member), or we wait for it (then see no plan).
          const [plan] = await tx
            .select({ slug: subscriptionPlans.slug })
            .from(subscriptionPlans)
            .where(eq(subscriptionPlans.slug, changes.plan))
            .for('share')
          if (!plan)
            throw new ValidationError(`plan: There is no plan called ${changes.plan}.`, [
              { path: 'plan', message: `There is no plan called ${changes.plan}.` },
            ])
          before.plan = profile.subscriptionPlan
          after.plan = plan.slug
        }
        if (changes.fullName !== undefined && changes.fullName !== profile.fullName) {
          before.fullName = profile.fullName
          after.fullName = changes.fullName
        }
        if (changes.phone !== undefined && changes.phone !== profile.phone) {
          before.phone = profile.phone
          after.phone = changes.phone
        }
        const profileChanges = {
          ...(after.role !== undefined ? { role: after.role as 'user' | 'admin' } : {}),
          ...(after.fullName !== undefined ? { fullName: after.fullName as string } : {}),
          ...(after.phone !== undefined ? { phone: after.phone as string | null } : {}),
        }
        // A member's plan and credits are those of their personal workspace (same id).
        if (after.plan !== undefined) {
          await tx
            .update(workspaces)
            .set({ planSlug: after.plan as string, updatedAt: new Date() })
            .where(eq(workspaces.id, id))
        }
        // An admin no more: the views as members they hold end with the role (docs/decisions/064).
        if (after.role === 'user') await tx.delete(sessions).where(eq(sessions.impersonatedBy, id))
        if (Object.keys(profileChanges).length) {
          await tx
            .update(profiles)
            .set({ ...profileChanges, updatedAt: new Date() })
            .where(eq(profiles.id, id))
        }
        if (after.fullName !== undefined)
          await tx
            .update(users)
            .set({ name: after.fullName as string, updatedAt: new Date() })
            .where(eq(users.id, id))
        if (changes.credits !== undefined && changes.credits !== profile.credits) {
          before.credits = profile.credits
          after.credits = await credits.setBalanceIn(tx, id, changes.credits, { actorId: actor.id, reference: `set by ${actor.email}` })
        }
        if (!Object.keys(after).length) return
        const what = Object.keys(after)
          .map((key) => `${key} ${JSON.stringify(before[key])} → ${JSON.stringify(after[key])}`)
          .join(', ')
        await audit.record(tx, actor, {
          action: 'user.update',
          targetType: 'user',
          targetId: id,
          summary: `Changed ${user.email}: ${what}`,
          before,
          after,
        })
      })
      return requireUser(id)
    },

    async create(actor: Actor, input: AdminUserCreate) {
      const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email))
      if (existing) throw new Conflict('An account with this email already exists.')
      const result = await auth.api.signUpEmail({ body: { email: input.email, password: input.password, name: input.fullName ?? '' } })
      await db.transaction(async (tx) => {
        if (input.role === 'admin' || input.phone)
          await tx
            .update(profiles)
            .set({ role: input.role, phone: input.phone ?? null, updatedAt: new Date() })
            .where(eq(profiles.id, result.user.id))
        await audit.record(tx, actor, {
          action: 'user.create',
          targetType: 'user',
          targetId: result.user.id,
          summary: `Created ${input.email} (${input.role})`,
          after: { email: input.email, role: input.role, fullName: input.fullName ?? null, phone: input.phone ?? null },
        })
      })
      return requireUser(result.user.id)
    },

    /**
     * Deletes the account at once, as a member's own erasure does in the end (server/db/account-erasure.ts):
     * with its personal workspace and the team workspaces only it is in, and everything that hangs on
     * them (sessions, profile, automations, runs, payments, ledger). Refused while it alone owns a
     * team others work in. Its subscriptions are cancelled at the provider first (a provider that
     * cannot be reached keeps the account), and its run and export files go once the rows have.
     */
    async remove(actor: Actor, id: string): Promise<void> {
      if (id === actor.id) throw new Conflict('You cannot delete your own account.')
      // The refusals first, so that nothing is cancelled at the provider for an account that stays.
      const soloTeams = await db.transaction((tx) => deletableAccount(tx, id))
      const workspaceIds = [id, ...soloTeams]
      await deps.cancelSubscriptions(workspaceIds)
      const runIds = (
        await db.select({ id: automationRuns.id }).from(automationRuns).where(inArray(automationRuns.workspaceId, workspaceIds))
      ).map((run) => run.id)
      const exportIds = await deps.exports.idsOf(id)
      await db.transaction(async (tx) => {
        // Someone joined or left one of its teams meanwhile: look again, then delete or refuse.
        const stillSolo = await deletableAccount(tx, id)
        if (stillSolo.join() !== soloTeams.join()) throw new Conflict('Its team workspaces changed meanwhile: try again.')
        const { profile, user } = await lockedAccount(tx, id)
        if (!user) throw new NotFound('User not found')
        await deleteAccountIn(tx, id, soloTeams)
        await audit.record(tx, actor, {
          action: 'user.delete',
          targetType: 'user',
          targetId: id,
          summary: `Deleted ${user.email}${soloTeams.length ? ` and ${soloTeams.length === 1 ? 'the team workspace only they were in' : `${soloTeams.length} team workspaces only they were in`}` : ''}`,
          before: {
            email: user.email,
            role: profile?.role ?? null,
            plan: profile?.subscriptionPlan ?? null,
            credits: profile?.credits ?? null,
            ...(soloTeams.length ? { teamWorkspacesDeleted: soloTeams.length } : {}),
          },
        })
      })
      await deps.exports.removeFiles(exportIds)
      for (const runId of runIds) await deps.runFiles.remove(runId).catch(() => undefined)
    },

    /** Sets a new password (POST /api/users/:id/reset-password); the user's sessions end. */
    async setPassword(actor: Actor, id: string, newPassword: string): Promise<void> {
      const user = await requireUser(id)
      const hash = await hashPassword(newPassword)
      await db.transaction(async (tx) => {
        const updated = await tx
          .update(accounts)
          .set({ password: hash, updatedAt: new Date() })
          .where(and(eq(accounts.userId, id), eq(accounts.providerId, 'credential')))
          .returning({ id: accounts.id })
        if (!updated.length) {
          // A Google-only account gets an e-mail login too.
          await tx
            .insert(accounts)
            .values({ id: randomBytes(16).toString('hex'), accountId: id, providerId: 'credential', userId: id, password: hash })
        }
        await tx.delete(sessions).where(signedInAs(id))
        await audit.record(tx, actor, {
          action: 'user.password',
          targetType: 'user',
          targetId: id,
          summary: `Set a new password for ${user.email}`,
        })
      })
    },

    /**
     * Turns off a member's two-factor sign-in and removes their passkeys (a lost phone, docs/decisions/023),
     * with an audit entry naming the admin. Their password signs in alone again until they set it up anew;
     * a workspace that requires it refuses them until then.
     */
    async resetTwoFactor(actor: Actor, id: string): Promise<{ twoFactorWasOn: boolean; passkeysRemoved: number }> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .select({ email: users.email, twoFactorEnabled: users.twoFactorEnabled })
          .from(users)
          .where(eq(users.id, id))
          .for('update')
        if (!user) throw new NotFound('User not found')
        const removedSecrets = await tx.delete(twoFactors).where(eq(twoFactors.userId, id)).returning({ id: twoFactors.id })
        const removedPasskeys = await tx.delete(passkeys).where(eq(passkeys.userId, id)).returning({ id: passkeys.id })
        await tx.update(users).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(users.id, id))
        const passkeysRemoved = removedPasskeys.length
        const what = [
          user.twoFactorEnabled
            ? 'turned off two-factor sign-in'
            : removedSecrets.length
              ? 'dropped an unfinished two-factor set-up'
              : null,
          passkeysRemoved ? `removed ${passkeysRemoved === 1 ? '1 passkey' : `${passkeysRemoved} passkeys`}` : null,
        ].filter(Boolean)
        await audit.record(tx, actor, {
          action: 'user.two-factor-reset',
          targetType: 'user',
          targetId: id,
          summary: `Reset two-factor sign-in of ${user.email}: ${what.length ? what.join(' and ') : 'nothing was set up'}`,
          before: { twoFactorEnabled: user.twoFactorEnabled, passkeys: passkeysRemoved },
          after: { twoFactorEnabled: false, passkeys: 0 },
        })
        return { twoFactorWasOn: user.twoFactorEnabled, passkeysRemoved }
      })
    },

    /**
     * Ends every signed-in session of a member at once (a shared computer, a stolen laptop), with an
     * audit entry; their API keys and connected devices are left as they are. How many ended.
     */
    async signOutEverywhere(actor: Actor, id: string): Promise<number> {
      const user = await requireUser(id)
      return db.transaction(async (tx) => {
        const ended = await tx.delete(sessions).where(signedInAs(id)).returning({ id: sessions.id })
        await audit.record(tx, actor, {
          action: 'user.sign-out',
          targetType: 'user',
          targetId: id,
          summary: `Signed ${user.email} out everywhere (${ended.length === 1 ? '1 session' : `${ended.length} sessions`})`,
        })
        return ended.length
      })
    },

    /** Sends a member the "Verify your e-mail" link again (a lost mail); refused once they are verified. */
    async resendVerification(actor: Actor, id: string): Promise<void> {
      const user = await requireUser(id)
      if (user.emailVerified) throw new Conflict(`${user.email} is already verified.`)
      await auth.api.sendVerificationEmail({ body: { email: user.email } })
      await audit.record(db, actor, {
        action: 'user.verification-resent',
        targetType: 'user',
        targetId: id,
        summary: `Sent ${user.email} the e-mail verification link again`,
      })
    },

    /** An e-mail from the admin to a user, through the mailer (kept in the outbox). */
    async sendEmail(actor: Actor, id: string, message: AdminEmail): Promise<void> {
      const user = await requireUser(id)
      await mailer.send({ to: user.email, subject: message.subject, text: `${message.message}\n\n— ${actor.email}, Aether` })
      await audit.record(db, actor, {
        action: 'user.email',
        targetType: 'user',
        targetId: id,
        summary: `E-mailed ${user.email}: ${message.subject}`,
      })
    },
  }
}

export type UserAdminService = ReturnType<typeof createUserAdminService>
