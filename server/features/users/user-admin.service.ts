import { randomBytes } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { AdminEmail, AdminUserCreate, AdminUserUpdate } from '#common/users.ts'
import { Conflict, NotFound, ValidationError } from '#common/errors.ts'
import type { Auth } from '#server/better-auth.ts'
import type { Db } from '#server/db/client.ts'
import {
  accounts,
  passkeys,
  profiles,
  sessions,
  subscriptionPlans,
  twoFactors,
  users,
  workspaceMembers,
  workspaces,
} from '#server/db/schema/index.ts'
import { profileColumns } from '#server/db/profile-columns.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'
import type { CreditService } from '#server/features/credits/credit.service.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'
import { hashPassword } from '#server/password-hashing.ts'
import type { UserService } from './user.service.ts'

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
}) {
  const { db, auth, users: userQueries, credits, audit, mailer } = deps

  async function requireUser(id: string) {
    const user = await userQueries.get(id)
    if (!user) throw new NotFound('User not found')
    return user
  }

  /** The team workspaces this person alone owns: deleting them would leave those without an owner. */
  async function soleOwnerOf(tx: Pick<Db, 'select'>, userId: string): Promise<string[]> {
    // Their teams are locked first, so an owner leaving meanwhile waits and is counted.
    await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, workspaces.id))
      .where(and(eq(workspaceMembers.userId, userId), eq(workspaces.kind, 'team')))
      .orderBy(workspaces.id)
      .for('update', { of: workspaces })
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
        ),
      )
    return rows.map((row) => row.name)
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
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, id))
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

    /** Deletes the account and everything that hangs on it (sessions, profile, payments, ledger). */
    async remove(actor: Actor, id: string): Promise<void> {
      if (id === actor.id) throw new Conflict('You cannot delete your own account.')
      await db.transaction(async (tx) => {
        const admins = await adminCount(tx)
        const { profile, user } = await lockedAccount(tx, id)
        if (!user) throw new NotFound('User not found')
        if (profile?.role === 'admin' && admins <= 1) throw new Conflict('This is the last admin and cannot be deleted.')
        const orphaned = await soleOwnerOf(tx, id)
        if (orphaned.length) {
          throw new Conflict(
            `${user.email} is the only owner of the team workspace ${orphaned.join(', ')}: make someone else its owner first.`,
          )
        }
        await tx.delete(users).where(eq(users.id, id))
        await audit.record(tx, actor, {
          action: 'user.delete',
          targetType: 'user',
          targetId: id,
          summary: `Deleted ${user.email}`,
          before: {
            email: user.email,
            role: profile?.role ?? null,
            plan: profile?.subscriptionPlan ?? null,
            credits: profile?.credits ?? null,
          },
        })
      })
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
        await tx.delete(sessions).where(eq(sessions.userId, id))
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
