import { eq } from 'drizzle-orm'
import { Conflict, NotFound } from '#common/errors.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { profiles, sessions, users } from '#server/db/schema/index.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'
import type { RunService } from '#server/features/runs/run.service.ts'

export interface Suspended {
  sessionsEnded: number
  runsStopped: number
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * An admin suspends a member, and restores them (docs/decisions/062). Suspending takes effect at
 * once: the account is marked (every session lookup, API key, device, trigger URL and schedule
 * reads the mark), its sessions end and its unfinished runs stop, with an audit entry naming the
 * admin and the reason, all in one transaction. Restoring clears the mark: keys, devices, trigger
 * URLs and schedules work again, nothing was deleted. Nobody suspends themselves or an admin
 * (an admin is demoted first, which the last-admin rule guards).
 */
export function createUserSuspensionService(deps: {
  db: Db
  audit: Pick<AuditService, 'record'>
  runs: Pick<RunService, 'stopRunsOfAccountIn' | 'announce'>
}) {
  const { db, audit, runs } = deps

  /** The account, its profile locked first (as an admin's edit locks it, so the two wait for each other). */
  async function lockedAccount(tx: Tx, id: string) {
    const [account] = await tx
      .select({ email: users.email, role: profiles.role, suspendedAt: users.suspendedAt, reason: users.suspensionReason })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.id))
      .where(eq(profiles.id, id))
      .for('update', { of: profiles })
    if (!account) throw new NotFound('User not found')
    return account
  }

  return {
    async suspend(actor: Actor, id: string, reason: string): Promise<Suspended> {
      if (id === actor.id) throw new Conflict('You cannot suspend your own account.')
      const { stopped, sessionsEnded } = await db.transaction(async (tx) => {
        const account = await lockedAccount(tx, id)
        if (account.role === 'admin') throw new Conflict(`${account.email} is an admin: remove their admin role before suspending them.`)
        if (account.suspendedAt) throw new Conflict(`${account.email} is already suspended.`)
        await tx.update(users).set({ suspendedAt: new Date(), suspensionReason: reason, updatedAt: new Date() }).where(eq(users.id, id))
        const ended = await tx.delete(sessions).where(eq(sessions.userId, id)).returning({ id: sessions.id })
        const stopped = await runs.stopRunsOfAccountIn(tx, id, `the account that started it was suspended by ${actor.email}`)
        await audit.record(tx, actor, {
          action: 'user.suspend',
          targetType: 'user',
          targetId: id,
          summary: `Suspended ${account.email}: ${reason} (${count(ended.length, 'session', 'sessions')} ended, ${count(stopped.length, 'run', 'runs')} stopped)`,
          before: { suspended: false },
          after: { suspended: true, reason, sessionsEnded: ended.length, runsStopped: stopped.length },
        })
        return { stopped, sessionsEnded: ended.length }
      })
      for (const run of stopped) runs.announce(run)
      return { sessionsEnded, runsStopped: stopped.length }
    },

    async unsuspend(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const account = await lockedAccount(tx, id)
        if (!account.suspendedAt) throw new Conflict(`${account.email} is not suspended.`)
        await tx.update(users).set({ suspendedAt: null, suspensionReason: null, updatedAt: new Date() }).where(eq(users.id, id))
        await audit.record(tx, actor, {
          action: 'user.unsuspend',
          targetType: 'user',
          targetId: id,
          summary: `Unsuspended ${account.email} (suspended since ${account.suspendedAt.toISOString().slice(0, 10)}: ${account.reason ?? 'no reason given'})`,
          before: { suspended: true, reason: account.reason, suspendedAt: account.suspendedAt.toISOString() },
          after: { suspended: false },
        })
      })
    },
  }
}

export type UserSuspensionService = ReturnType<typeof createUserSuspensionService>
