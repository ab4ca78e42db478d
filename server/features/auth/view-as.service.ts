import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { parse as parseCookies } from 'hono/utils/cookie'
import { Conflict, NotFound, Unauthorized } from '#common/errors.ts'
import { utcTimeOfDay, VIEW_AS_MINUTES, viewAsRefusal } from '#common/view-as.ts'
import { SESSION_COOKIE_NAME, VIEW_AS_COOKIE_NAME } from '#server/auth.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { auditLog, profiles, sessions, users } from '#server/db/schema/index.ts'
import type { Actor, AuditService } from '#server/features/audit/audit.service.ts'
import { signedToken, verifiedToken } from './session-lookup.ts'

/** What the aether_view_as cookie keeps while an admin views as a member: the view-as session, and the admin's own token. */
export interface HeldSession {
  viewSessionId: string
  adminToken: string
}

/**
 * Why viewing ended: the admin ended it, the 30 minutes were up, the view-as session was already
 * gone (the member was signed out everywhere or suspended; the admin was, or lost the admin role),
 * or the admin signed out while viewing.
 */
export type ViewingEndedHow = 'ended' | 'expired' | 'gone' | 'signed-out'

export interface ViewingEnded {
  how: ViewingEndedHow
  /** The member the admin viewed as; null only if the audit log no longer names them. */
  email: string | null
  /** The admin's own session is in the session cookie again (it was still live); else the browser is signed out. */
  restored: boolean
  /** The restored session cookie's value (signed), for the request that restores it to go on as the admin. */
  sessionCookie: string | null
  setCookies: string[]
}

const ENDED_WORDS: Record<ViewingEndedHow, string> = {
  ended: 'ended by the admin',
  expired: `the ${VIEW_AS_MINUTES} minutes were up`,
  gone: 'it had been ended: the member was signed out everywhere or suspended, or the admin signed out everywhere or lost the admin role',
  'signed-out': 'the admin signed out',
}

const newSecret = () => randomBytes(24).toString('base64url')

/**
 * An admin views the app as a member, read-only, for 30 minutes (docs/decisions/064). Starting
 * makes a session of the member marked `impersonated_by` the admin, which the session cookie then
 * carries; the admin's own session waits, untouched, in the aether_view_as cookie (signed as Better
 * Auth signs its cookie) and comes back when viewing ends: on demand, or at the first request after
 * the 30 minutes. Both ends go into the audit log, about the member, with the reason.
 */
export function createViewAsService(deps: { db: Db; audit: Pick<AuditService, 'record'>; secret: string; secure: boolean }) {
  const { db, audit, secret, secure } = deps
  const attributes = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
  const cookie = (name: string, value: string, maxAgeSeconds: number) =>
    `${name}=${value}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${attributes}`
  const cleared = (name: string) => cookie(name, '', 0)

  /** The entry that started this view-as session: the admin, the member and the reason. */
  async function startOf(tx: Tx, viewSessionId: string) {
    const [entry] = await tx
      .select({ actorId: auditLog.actorId, actorEmail: auditLog.actorEmail, memberId: auditLog.targetId, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.view-as'), sql`${auditLog.after}->>'sessionId' = ${viewSessionId}`))
      .limit(1)
    return entry
  }

  async function endedBefore(tx: Tx, viewSessionId: string): Promise<boolean> {
    const [entry] = await tx
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.view-as-ended'), sql`${auditLog.after}->>'sessionId' = ${viewSessionId}`))
      .limit(1)
    return Boolean(entry)
  }

  /** Deletes the view-as session and records the end once (the deletion, or the entry already written, says it was recorded). */
  async function recordEnd(held: HeldSession, asked: 'ended' | 'found' | 'signed-out') {
    return db.transaction(async (tx) => {
      // One end at a time per view: two tabs finding it over at once (its row already gone) would both record it.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`view-as:${held.viewSessionId}`}))`)
      const [view] = await tx
        .delete(sessions)
        .where(and(eq(sessions.id, held.viewSessionId), sql`${sessions.impersonatedBy} is not null`))
        .returning({ expiresAt: sessions.expiresAt })
      const started = await startOf(tx, held.viewSessionId)
      // By the time it was to end: Better Auth deletes an expired session it is shown (an API call), so the row may be gone.
      const until = view?.expiresAt ?? (typeof started?.after?.until === 'string' ? new Date(started.after.until) : null)
      const expired = until !== null && until.getTime() <= Date.now()
      const how: ViewingEndedHow = asked !== 'found' ? asked : expired ? 'expired' : view ? 'ended' : 'gone'
      const email = (started?.after?.memberEmail as string | undefined) ?? null
      if (started && (view || !(await endedBefore(tx, held.viewSessionId)))) {
        await audit.record(
          tx,
          { id: started.actorId, email: started.actorEmail },
          {
            action: 'user.view-as-ended',
            targetType: 'user',
            targetId: started.memberId,
            summary: `Stopped viewing Aether as ${email ?? 'a deleted member'}: ${ENDED_WORDS[how]}`,
            after: { sessionId: held.viewSessionId, how, until: started.after?.until ?? null },
          },
        )
      }
      return { how, email }
    })
  }

  /** The admin's own session, if it is still live: their token, and how long it has left. */
  async function liveAdminSession(token: string) {
    const [own] = await db
      .select({ expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.token, token), gt(sessions.expiresAt, new Date()), isNull(sessions.impersonatedBy), isNull(users.suspendedAt)))
    return own ?? null
  }

  return {
    /**
     * Starts viewing as `memberId`: never oneself, an admin, a suspended member or one whose deletion
     * waits (409, viewAsRefusal). `admin` signed in with the session `sessionId` (a cookie or a bearer
     * token: either comes back as the cookie).
     */
    async start(admin: Actor & { sessionId: string }, memberId: string, reason: string) {
      const now = new Date()
      const until = new Date(now.getTime() + VIEW_AS_MINUTES * 60_000)
      return db.transaction(async (tx) => {
        // Locked as a suspension locks it: a member suspended meanwhile is not viewed.
        const [member] = await tx
          .select({ email: users.email, role: profiles.role, suspendedAt: users.suspendedAt, eraseAfter: users.eraseAfter })
          .from(profiles)
          .innerJoin(users, eq(users.id, profiles.id))
          .where(eq(profiles.id, memberId))
          .for('update', { of: profiles })
        if (!member) throw new NotFound('User not found')
        const refused = viewAsRefusal({
          email: member.email,
          isSelf: memberId === admin.id,
          isAdmin: member.role === 'admin',
          suspended: member.suspendedAt !== null,
          deletionPending: member.eraseAfter !== null,
        })
        if (refused) throw new Conflict(refused)
        const [own] = await tx
          .select({ token: sessions.token, expiresAt: sessions.expiresAt })
          .from(sessions)
          .where(and(eq(sessions.id, admin.sessionId), eq(sessions.userId, admin.id), isNull(sessions.impersonatedBy)))
        if (!own) throw new Unauthorized()
        const view = { id: newSecret(), token: newSecret() }
        await tx
          .insert(sessions)
          .values({ ...view, userId: memberId, expiresAt: until, impersonatedBy: admin.id, createdAt: now, updatedAt: now })
        await audit.record(tx, admin, {
          action: 'user.view-as',
          targetType: 'user',
          targetId: memberId,
          summary: `Viewed Aether as ${member.email} until ${utcTimeOfDay(until)} UTC: ${reason}`,
          after: { reason, until: until.toISOString(), sessionId: view.id, memberEmail: member.email },
        })
        return {
          until,
          email: member.email,
          setCookies: [
            cookie(SESSION_COOKIE_NAME, signedToken(view.token, secret), VIEW_AS_MINUTES * 60),
            cookie(VIEW_AS_COOKIE_NAME, signedToken(`${view.id}:${own.token}`, secret), (own.expiresAt.getTime() - now.getTime()) / 1000),
          ],
        }
      })
    },

    /** The sessions the aether_view_as cookie of this Cookie header keeps, if it carries one signed by us. */
    held(cookieHeader: string | null | undefined): HeldSession | null {
      if (!cookieHeader?.includes(VIEW_AS_COOKIE_NAME)) return null
      const value = parseCookies(cookieHeader, VIEW_AS_COOKIE_NAME)[VIEW_AS_COOKIE_NAME]
      const payload = value ? verifiedToken(value, secret) : null
      const colon = payload?.indexOf(':') ?? -1
      if (!payload || colon < 1) return null
      return { viewSessionId: payload.slice(0, colon), adminToken: payload.slice(colon + 1) }
    },

    /**
     * Ends viewing: `ended` on demand, `found` when a request found the view-as session over, `signed-out`
     * when the admin signs out while viewing (their own session ends too). With `restore`, the admin's
     * own session goes back into the session cookie if it is still live; the aether_view_as cookie goes.
     */
    async end(held: HeldSession, asked: 'ended' | 'found' | 'signed-out', options: { restore: boolean }): Promise<ViewingEnded> {
      const { how, email } = await recordEnd(held, asked)
      const setCookies = [cleared(VIEW_AS_COOKIE_NAME)]
      if (asked === 'signed-out') {
        await db.delete(sessions).where(and(eq(sessions.token, held.adminToken), isNull(sessions.impersonatedBy)))
        return { how, email, restored: false, sessionCookie: null, setCookies: [...setCookies, cleared(SESSION_COOKIE_NAME)] }
      }
      const own = options.restore ? await liveAdminSession(held.adminToken) : null
      if (!own) {
        return {
          how,
          email,
          restored: false,
          sessionCookie: null,
          setCookies: options.restore ? [...setCookies, cleared(SESSION_COOKIE_NAME)] : setCookies,
        }
      }
      const value = signedToken(held.adminToken, secret)
      const restored = cookie(SESSION_COOKIE_NAME, value, (own.expiresAt.getTime() - Date.now()) / 1000)
      return { how, email, restored: true, sessionCookie: value, setCookies: [...setCookies, restored] }
    },
  }
}

export type ViewAsService = ReturnType<typeof createViewAsService>
