import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm'
import { ACCOUNT_DELETION_GRACE_DAYS, DELETION_LINK_MINUTES, longDate, type AccountDeletionInput } from '#common/account-data.ts'
import { Conflict, ValidationError } from '#common/errors.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import {
  accounts,
  auditLog,
  automationRuns,
  mailOutbox,
  profiles,
  rateLimits as rateLimitRows,
  sessions,
  users,
  verifications,
  workspaceInvitations,
} from '#server/db/schema/index.ts'
import type { ActivityActor, AuditService } from '#server/features/audit/audit.service.ts'
import type { Credential } from '#server/features/auth/session.service.ts'
import type { RateLimitRule, RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { RunFiles } from '#server/features/runs/run-files.ts'
import type { RunService } from '#server/features/runs/run.service.ts'
import type { Logger } from '#server/logger.ts'
import type { createUrlSigner } from '#server/url-signer.ts'
import type { DeletionMail } from './account-data-mail.ts'
import { deleteAccountIn, lockTeamsOf, soloTeamsOf, teamsToTransferIn } from '#server/db/account-erasure.ts'
import type { DataExportService } from './data-export.service.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** How often the worker process looks for accounts to erase. */
const ERASE_EVERY_MS = 60 * 60 * 1000
/** Accounts one sweep erases at most (each cancels subscriptions at the provider first). */
const BATCH = 20
const PURPOSE = 'account-deletion'
const WRONG_PASSWORD = 'Password is incorrect.'
/** What the audit log names where an erased member's address was. */
export const ERASED_EMAIL = '[erased account]'
/** Who erases: the worker process, on the member's request. */
const ERASURE: ActivityActor = { id: null, email: 'Aether (account erasure)' }

/** Tries to confirm a deletion, per member: each checks a password, a code or a link. */
const DELETION_ATTEMPTS_PER_USER: RateLimitRule = {
  limit: 10,
  windowSeconds: 15 * 60,
  message: 'Too many attempts to delete your account. Please wait 15 minutes and try again.',
}

/** What the danger zone needs to know: how the member confirms, and what they must do first. */
export interface DeletionStatus {
  hasPassword: boolean
  twoFactorEnabled: boolean
  /** Team workspaces they alone own while others work in them: ownership must go to someone first. */
  teamsToTransfer: string[]
  /** They are the site's last admin. */
  lastAdmin: boolean
}

/** How a deletion request ended: scheduled, or (an account without a password) a link e-mailed to confirm it. */
export type DeletionRequested =
  { confirmation: 'done'; eraseAfter: Date; sessionsEnded: number; runsStopped: number } | { confirmation: 'email'; sentTo: string }

export type Erasure = 'erased' | 'not-due' | 'blocked' | 'busy'

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

function refuseTeams(teams: string[]): void {
  if (!teams.length) return
  const named = teams.length === 1 ? `the team workspace ${teams[0]}` : `the team workspaces ${teams.join(', ')}`
  throw new Conflict(
    `You are the only owner of ${named}, where others still work. Make another member its owner (Team, then Members) or remove them, then delete your account.`,
  )
}

/**
 * A member deletes their own account (docs/decisions/065). Asking, confirmed by the password, an
 * authenticator code or (without a password) an e-mailed link, marks the account with the day it
 * is erased, ACCOUNT_DELETION_GRACE_DAYS ahead, signs it out everywhere and stops its runs; its
 * keys, devices, trigger URLs and schedules are refused meanwhile. Signing in before that day
 * cancels it. Then the worker process erases it: subscriptions cancelled at the provider, the
 * account and everything that hangs on it deleted, files removed, the audit log anonymised.
 */
export function createAccountDeletionService(deps: {
  db: Db
  audit: Pick<AuditService, 'record'>
  runs: Pick<RunService, 'stopRunsOfAccountIn' | 'announce'>
  mail: DeletionMail
  signer: ReturnType<typeof createUrlSigner>
  rateLimits: Pick<RateLimitService, 'consume'>
  /** Whether this is the account's password (auth's account-password.ts). */
  passwordMatches: (userId: string, password: string) => Promise<boolean>
  /** Refuses a wrong or used authenticator code as a field error (the two-factor service). */
  checkCode: (userId: string, code: string, credential: Credential | null) => Promise<void>
  /** Ends the workspaces' subscriptions at the provider now; throws when it cannot. */
  cancelSubscriptions: (workspaceIds: string[]) => Promise<number>
  runFiles: Pick<RunFiles, 'remove'>
  exports: Pick<DataExportService, 'idsOf' | 'removeFiles' | 'building'>
  logger: Logger
  clock?: () => Date
}) {
  const { db, audit, runs, mail, signer, logger } = deps
  const clock = deps.clock ?? (() => new Date())

  async function hasPassword(userId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential'), isNotNull(accounts.password)))
      .limit(1)
    return Boolean(row)
  }

  async function isLastAdmin(tx: Pick<DbOrTx, 'select'>, userId: string): Promise<boolean> {
    const admins = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.role, 'admin'))
    return admins.length === 1 && admins[0]?.id === userId
  }

  /** A link's token: when it stops working and its signature for this member (`expires.signature`). */
  function linkToken(userId: string, now: Date): string {
    const expires = Math.floor(now.getTime() / 1000) + DELETION_LINK_MINUTES * 60
    return `${expires}.${signer.sign(PURPOSE, `${userId}/${expires}`)}`
  }

  function linkWorks(userId: string, token: string, now: Date): boolean {
    const [expires, signature = null] = token.split('.')
    const seconds = Number(expires)
    if (!Number.isSafeInteger(seconds) || seconds * 1000 <= now.getTime()) return false
    return signer.verify(PURPOSE, `${userId}/${seconds}`, signature)
  }

  /** The password, a code or a link proves it is the member; an account without a password gets a link instead. */
  async function confirmed(
    member: { id: string; email: string; twoFactorEnabled: boolean },
    input: AccountDeletionInput,
    credential: Credential | null,
  ): Promise<boolean> {
    const now = clock()
    if (input.token !== undefined) {
      if (linkWorks(member.id, input.token, now)) return true
      const message = 'This confirmation link has expired or is not yours. Ask for a new one.'
      throw new ValidationError(`token: ${message}`, [{ path: 'token', message }])
    }
    if (input.password !== undefined) {
      if (await deps.passwordMatches(member.id, input.password)) return true
      throw new ValidationError(`password: ${WRONG_PASSWORD}`, [{ path: 'password', message: WRONG_PASSWORD }])
    }
    if (input.code !== undefined) {
      if (!member.twoFactorEnabled) {
        const message = 'Two-factor sign-in is off for your account: confirm with your password.'
        throw new ValidationError(`code: ${message}`, [{ path: 'code', message }])
      }
      await deps.checkCode(member.id, input.code, credential)
      return true
    }
    if (await hasPassword(member.id)) {
      const message = member.twoFactorEnabled
        ? 'Enter your password, or a code from your authenticator app, to confirm.'
        : 'Enter your password to confirm.'
      throw new ValidationError(`password: ${message}`, [{ path: 'password', message }])
    }
    await mail.confirmByLink(member.email, linkToken(member.id, now))
    return false
  }

  /** Erases one account whose day has come; says why not when it does not. */
  async function erase(userId: string, now: Date): Promise<Erasure> {
    const [user] = await db
      .select({ email: users.email, eraseAfter: users.eraseAfter, requestedAt: users.deletionRequestedAt })
      .from(users)
      .where(eq(users.id, userId))
    if (!user?.eraseAfter || user.eraseAfter > now) return 'not-due'
    const blocking = await teamsToTransferIn(db, userId)
    if (blocking.length) {
      // Someone joined a team of theirs during the grace period: an admin transfers it, then the next sweep erases.
      logger.warn({ userId, teams: blocking }, 'account erasure: waits, the member alone owns a team others work in')
      return 'blocked'
    }
    if (await deps.exports.building([userId])) return 'busy'
    const soloTeams = await soloTeamsOf(db, userId)
    const workspaceIds = [userId, ...soloTeams]
    // First at the provider: a subscription we cannot cancel keeps the account until we can (the next sweep).
    const cancelled = await deps.cancelSubscriptions(workspaceIds)
    const runIds = (
      await db.select({ id: automationRuns.id }).from(automationRuns).where(inArray(automationRuns.workspaceId, workspaceIds))
    ).map((run) => run.id)
    // Their files go once the rows are gone for good (a cancelled erasure keeps its download).
    const exportIds = await deps.exports.idsOf(userId)

    const erased = await db.transaction(async (tx): Promise<Erasure> => {
      // Their teams first, then the account (the order of every transaction that locks both).
      await lockTeamsOf(tx, userId)
      const [locked] = await tx.select({ eraseAfter: users.eraseAfter }).from(users).where(eq(users.id, userId)).for('update')
      // Signed in meanwhile: the deletion was cancelled.
      if (!locked?.eraseAfter || locked.eraseAfter > now) return 'not-due'
      // Someone joined one of their teams since the look above: that team stays, and so does the account, for now.
      if ((await teamsToTransferIn(tx, userId)).length) return 'blocked'
      const stillSolo = await soloTeamsOf(tx, userId)
      if (stillSolo.join() !== soloTeams.join()) return 'blocked'
      const email = user.email
      // The audit log keeps what happened, without who it was: their address becomes ERASED_EMAIL.
      await tx.update(auditLog).set({ actorEmail: ERASED_EMAIL }).where(eq(auditLog.actorId, userId))
      await tx
        .update(auditLog)
        .set({
          actorEmail: sql`replace(${auditLog.actorEmail}, ${email}, ${ERASED_EMAIL})`,
          summary: sql`replace(${auditLog.summary}, ${email}, ${ERASED_EMAIL})`,
          before: sql`replace(${auditLog.before}::text, ${email}, ${ERASED_EMAIL})::jsonb`,
          after: sql`replace(${auditLog.after}::text, ${email}, ${ERASED_EMAIL})::jsonb`,
        })
        .where(
          or(
            sql`position(${email} in ${auditLog.actorEmail}) > 0`,
            sql`position(${email} in ${auditLog.summary}) > 0`,
            sql`position(${email} in coalesce(${auditLog.before}::text, '')) > 0`,
            sql`position(${email} in coalesce(${auditLog.after}::text, '')) > 0`,
          ),
        )
      await deleteAccountIn(tx, userId, soloTeams)
      await tx.delete(mailOutbox).where(eq(mailOutbox.to, email))
      // Open invitations to the address go; accepted ones stay in their team's history, without it.
      await tx.delete(workspaceInvitations).where(and(eq(workspaceInvitations.email, email), isNull(workspaceInvitations.acceptedAt)))
      await tx.update(workspaceInvitations).set({ email: ERASED_EMAIL }).where(eq(workspaceInvitations.email, email))
      await tx.delete(rateLimitRows).where(sql`position(${`:${email}`} in ${rateLimitRows.key}) > 0`)
      // Better Auth's pending links (a password reset names the account, a change of address the address).
      await tx.delete(verifications).where(or(eq(verifications.value, userId), sql`position(${email} in ${verifications.identifier}) > 0`))
      await audit.record(tx, ERASURE, {
        action: 'user.erased',
        targetType: 'user',
        targetId: userId,
        summary:
          `Erased an account as its member asked on ${longDate(user.requestedAt ?? now)}: ` +
          `${count(cancelled, 'subscription', 'subscriptions')} cancelled, ${count(soloTeams.length, 'team workspace', 'team workspaces')} and ` +
          `${count(runIds.length, 'run', 'runs')} deleted`,
        after: {
          requestedAt: user.requestedAt?.toISOString() ?? null,
          subscriptionsCancelled: cancelled,
          teamWorkspacesDeleted: soloTeams.length,
          runsDeleted: runIds.length,
        },
      })
      return 'erased'
    })
    if (erased !== 'erased') {
      if (cancelled > 0) {
        // The provider's subscriptions already ended: the member (or their team) chooses a plan again.
        logger.warn(
          { userId, outcome: erased, subscriptionsCancelled: cancelled },
          'account erasure: stopped after the subscriptions were cancelled',
        )
      }
      return erased
    }
    await deps.exports.removeFiles(exportIds)
    for (const runId of runIds) {
      await deps.runFiles
        .remove(runId)
        .catch((error: unknown) => logger.warn({ err: error, runId }, 'account erasure: run files not removed'))
    }
    return 'erased'
  }

  return {
    /** What the Settings danger zone needs. */
    async status(member: { id: string; twoFactorEnabled: boolean }): Promise<DeletionStatus> {
      const [password, teams, lastAdmin] = await Promise.all([
        hasPassword(member.id),
        teamsToTransferIn(db, member.id),
        isLastAdmin(db, member.id),
      ])
      return { hasPassword: password, twoFactorEnabled: member.twoFactorEnabled, teamsToTransfer: teams, lastAdmin }
    },

    /**
     * The member asks to delete their account (Settings, POST /api/account/deletion). Refused while
     * they alone own a team others work in, or are the last admin. Confirmed, it is done at once.
     */
    async request(
      member: { id: string; email: string; twoFactorEnabled: boolean },
      input: AccountDeletionInput,
      credential: Credential | null,
    ): Promise<DeletionRequested> {
      await deps.rateLimits.consume(`account-deletion:user:${member.id}`, DELETION_ATTEMPTS_PER_USER)
      refuseTeams(await teamsToTransferIn(db, member.id))
      if (await isLastAdmin(db, member.id))
        throw new Conflict('You are the last admin: make someone else an admin before deleting your account.')
      if (!(await confirmed(member, input, credential))) return { confirmation: 'email', sentTo: member.email }
      const now = clock()
      const eraseAfter = new Date(now.getTime() + ACCOUNT_DELETION_GRACE_DAYS * DAY_MS)
      const { stopped, sessionsEnded } = await db.transaction(async (tx) => {
        // Their teams first (as an owner leaving locks them), then the account: a transfer meanwhile is seen.
        await lockTeamsOf(tx, member.id)
        refuseTeams(await teamsToTransferIn(tx, member.id))
        const [account] = await tx.select({ eraseAfter: users.eraseAfter }).from(users).where(eq(users.id, member.id)).for('update')
        if (account?.eraseAfter) throw new Conflict(`Your account is already scheduled for deletion on ${longDate(account.eraseAfter)}.`)
        await tx.update(users).set({ deletionRequestedAt: now, eraseAfter, updatedAt: now }).where(eq(users.id, member.id))
        const ended = await tx.delete(sessions).where(eq(sessions.userId, member.id)).returning({ id: sessions.id })
        const stopped = await runs.stopRunsOfAccountIn(tx, member.id, 'the account that started it is being deleted')
        await audit.record(tx, member, {
          action: 'user.deletion-requested',
          targetType: 'user',
          targetId: member.id,
          summary: `Asked to delete the account ${member.email}: erased on ${longDate(eraseAfter)} unless they sign in before (${count(ended.length, 'session', 'sessions')} ended, ${count(stopped.length, 'run', 'runs')} stopped)`,
          after: { eraseAfter: eraseAfter.toISOString(), sessionsEnded: ended.length, runsStopped: stopped.length },
        })
        return { stopped, sessionsEnded: ended.length }
      })
      for (const run of stopped) runs.announce(run)
      await mail.scheduled(member.email, eraseAfter)
      return { confirmation: 'done', eraseAfter, sessionsEnded, runsStopped: stopped.length }
    },

    /**
     * Signing in cancels a deletion that waits (every way in calls it once the account proved
     * itself): answers the day the account would have been erased, or null when none was due.
     */
    async cancelOnSignIn(userId: string): Promise<Date | null> {
      const cancelled = await db.transaction(async (tx) => {
        const [user] = await tx
          .select({ email: users.email, eraseAfter: users.eraseAfter })
          .from(users)
          .where(eq(users.id, userId))
          .for('update')
        if (!user?.eraseAfter) return null
        await tx.update(users).set({ deletionRequestedAt: null, eraseAfter: null, updatedAt: new Date() }).where(eq(users.id, userId))
        await audit.record(
          tx,
          { id: userId, email: user.email },
          {
            action: 'user.deletion-cancelled',
            targetType: 'user',
            targetId: userId,
            summary: `Signed in, which cancelled the deletion of ${user.email} planned for ${longDate(user.eraseAfter)}`,
            before: { eraseAfter: user.eraseAfter.toISOString() },
            after: { eraseAfter: null },
          },
        )
        return { email: user.email, eraseAfter: user.eraseAfter }
      })
      if (!cancelled) return null
      await mail.cancelled(cancelled.email, cancelled.eraseAfter)
      return cancelled.eraseAfter
    },

    erase,

    /** Erases every account whose day has come (the worker's loop; tests call it with their time). How many. */
    async sweep(now = clock()): Promise<number> {
      const due = await db
        .select({ id: users.id })
        .from(users)
        .where(lte(users.eraseAfter, now))
        .orderBy(asc(users.eraseAfter))
        .limit(BATCH)
      let erased = 0
      for (const { id } of due) {
        try {
          if ((await erase(id, now)) === 'erased') erased++
        } catch (error) {
          logger.error({ err: error, userId: id }, 'account erasure failed; tried again at the next sweep')
        }
      }
      return erased
    },

    /** Sweeps now and every hour, in this process (the one that runs the cloud worker). */
    start() {
      const run = () =>
        void this.sweep()
          .then((erased) => {
            if (erased > 0) logger.info({ accounts: erased }, 'accounts erased after their grace period')
          })
          .catch((error: unknown) => logger.warn({ err: error }, 'account erasure: the sweep failed'))
      run()
      const timer = setInterval(run, ERASE_EVERY_MS)
      timer.unref()
      return { stop: () => clearInterval(timer) }
    },
  }
}

export type AccountDeletionService = ReturnType<typeof createAccountDeletionService>
