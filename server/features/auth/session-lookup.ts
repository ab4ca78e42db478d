import { createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { parse as parseCookies } from 'hono/utils/cookie'
import { SESSION_ABSOLUTE_SECONDS, SESSION_COOKIE_NAME, SESSION_IDLE_SECONDS, SESSION_REFRESH_SECONDS } from '#server/auth.ts'
import type { Db } from '#server/db/client.ts'
import type { HeardChanges } from '#server/db/heard-changes.ts'
import { profiles, sessions, subscriptionPlans, users, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { profileColumns } from '#server/db/profile-columns.ts'
import { workspaceAccessColumns } from '#server/db/workspace-access-columns.ts'
import type { Profile } from '#server/features/profiles/profile.service.ts'
import type { WorkspaceAccess } from '#server/features/workspaces/workspace.service.ts'
import type { Credential } from './session.service.ts'

/** A live session with its user and profile, read in one query. */
export interface SessionRecord {
  sessionId: string
  user: { id: string; email: string; emailVerified: boolean; name: string; twoFactorEnabled: boolean }
  profile: Profile
  /** The member's access to the workspace asked for (their personal one when none was): null when they have none. */
  workspace: WorkspaceAccess | null
  /** An admin opened this session to view the app as the member (docs/decisions/064): read-only until `until`. */
  viewedBy: ViewedBy | null
}

/** Who opened a view-as session and when it ends (docs/decisions/064). */
export interface ViewedBy {
  adminId: string
  until: Date
}

/** The workspace a request opens, joined by the session's query under its own name (the personal one is joined too). */
const opened = alias(workspaces, 'opened_workspace')

/** The most sessions kept at once; past it the oldest goes first. */
const MAX_KEPT = 2_000

/**
 * The common case of every signed-in request, without Better Auth's machinery: a session token
 * (a bearer token, or the signed `auth_session` cookie; never an API key) whose session is live, needs no refresh
 * and has a profile. Then Better Auth would answer with that session and change nothing, so this
 * answers the same with one query. Anything else (no token, a bad signature, an unknown, expired
 * or old session, one due for its sliding refresh, a missing profile, a signed bearer token,
 * leftover cookies Better Auth would clear) returns null, and the caller asks Better Auth, which
 * does what it always does.
 *
 * With `changes` (the embedded database, which this process alone uses: ADR 055), the rows read
 * are kept until any statement writes a table they come from; the time checks run on every use.
 */
export function createSessionLookup(db: Db, secret: string, changes: HeardChanges | null = null) {
  function tokenOf(credential: Credential | null): string | null {
    if (credential?.kind === 'bearer') {
      // Signed bearer tokens take Better Auth's path.
      return /[\s.%]/.test(credential.token) ? null : credential.token
    }
    if (credential?.kind !== 'cookie' || credential.header.includes('session_data') || credential.header.includes('dont_remember'))
      return null
    const value = parseCookies(credential.header, SESSION_COOKIE_NAME)[SESSION_COOKIE_NAME]
    return value ? verifiedToken(value, secret) : null
  }

  // Every signed-in request runs it: prepared once (drizzle builds no SQL per request; PostgreSQL
  // parses and plans it once per connection).
  const lookup = db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      createdAt: sessions.createdAt,
      impersonatedBy: sessions.impersonatedBy,
      user: {
        id: users.id,
        email: users.email,
        emailVerified: users.emailVerified,
        name: users.name,
        twoFactorEnabled: users.twoFactorEnabled,
      },
      profile: profileColumns,
      workspace: workspaceAccessColumns(opened),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.id, sessions.userId))
    .innerJoin(workspaces, eq(workspaces.id, sessions.userId))
    .leftJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.userId, sessions.userId),
        eq(workspaceMembers.workspaceId, sql`coalesce(${sql.placeholder('workspaceId')}, ${sessions.userId})`),
      ),
    )
    .leftJoin(opened, eq(opened.id, workspaceMembers.workspaceId))
    .leftJoin(subscriptionPlans, eq(subscriptionPlans.slug, opened.planSlug))
    // A suspended account's session is left to Better Auth's path, which refuses it (docs/decisions/062).
    .where(and(eq(sessions.token, sql.placeholder('token')), isNull(users.suspendedAt)))
    .prepare('session_lookup')

  type Row = Awaited<ReturnType<typeof lookup.execute>>[number]
  /** Rows read while `keptSince` was the changes heard; by token and workspace asked for. */
  const kept = new Map<string, Row>()
  let keptSince: number | null = null

  async function read(token: string, workspaceId: string | null, keep: boolean): Promise<Row | undefined> {
    const heard = keep ? (changes?.seen() ?? null) : null
    if (heard === null) return (await lookup.execute({ token, workspaceId }))[0]
    if (heard !== keptSince) {
      kept.clear()
      keptSince = heard
    }
    const key = `${token} ${workspaceId ?? ''}`
    const known = kept.get(key)
    if (known) return known
    const [row] = await lookup.execute({ token, workspaceId })
    // Kept only if nothing changed while it was read (a change clears what was kept before it).
    if (row && changes?.seen() === heard) {
      if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string)
      kept.set(key, row)
    }
    return row
  }

  return {
    /**
     * The session, and the member's access to `workspaceId` (their personal workspace when null), in
     * one query; `keep: false` reads afresh and keeps nothing (a session just made).
     */
    async find(credential: Credential | null, workspaceId: string | null = null, { keep = true } = {}): Promise<SessionRecord | null> {
      const token = tokenOf(credential)
      if (!token) return null
      const row = await read(token, workspaceId, keep)
      if (!row) return null
      const now = Date.now()
      const expiresAt = row.expiresAt.getTime()
      if (expiresAt <= now) return null
      // A view-as session lives its 30 minutes and is never refreshed (docs/decisions/064).
      const viewedBy = row.impersonatedBy === null ? null : { adminId: row.impersonatedBy, until: row.expiresAt }
      const dueForRefresh = expiresAt - SESSION_IDLE_SECONDS * 1000 + SESSION_REFRESH_SECONDS * 1000 <= now
      const tooOld = now - row.createdAt.getTime() > SESSION_ABSOLUTE_SECONDS * 1000
      if (!viewedBy && (dueForRefresh || tooOld)) return null
      // Left-joined: every column is null when the member has no place in the workspace asked for.
      const { role, planName } = row.workspace
      const workspace = role !== null && planName !== null ? { ...row.workspace, role, planName } : null
      // Copies: a kept row serves later requests too.
      return { sessionId: row.sessionId, user: { ...row.user }, profile: { ...row.profile }, workspace, viewedBy }
    },
  }
}

export type SessionLookup = ReturnType<typeof createSessionLookup>

const signatureOf = (token: string, secret: string) => createHmac('sha256', secret).update(token).digest('base64')

/** The token of a cookie value (URI-decoded) signed as Better Auth signs it: `token.base64(HMAC-SHA256(secret, token))`. */
export function verifiedToken(value: string, secret: string): string | null {
  const dot = value.lastIndexOf('.')
  if (dot < 1) return null
  const token = value.slice(0, dot)
  const signature = Buffer.from(value.slice(dot + 1))
  const expected = Buffer.from(signatureOf(token, secret))
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null
}

/** A cookie value signed as Better Auth signs its session cookie (URI-encoded, as it sends it): verifiedToken reads it. */
export function signedToken(token: string, secret: string): string {
  return encodeURIComponent(`${token}.${signatureOf(token, secret)}`)
}
