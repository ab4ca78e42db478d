import { and, eq, gt, isNull } from 'drizzle-orm'
import type { ApiKeyScope } from '#common/api-keys.ts'
import type { Role } from '#common/auth.ts'
import { SESSION_ABSOLUTE_SECONDS, SESSION_COOKIE_NAME } from '#server/auth.ts'
import type { Auth } from '#server/better-auth.ts'
import type { Db } from '#server/db/client.ts'
import type { HeardChanges } from '#server/db/heard-changes.ts'
import { DatabaseUnavailableError, isDatabaseUnavailable } from '#server/db/errors.ts'
import { profiles, sessions, users } from '#server/db/schema/index.ts'
import type { AuthenticatedKey } from '#server/features/api-keys/api-key.service.ts'
import type { AuthenticatedDevice } from '#server/features/devices/device.service.ts'
import type { DeviceKind } from '#common/devices.ts'
import type { Profile, ProfileService } from '#server/features/profiles/profile.service.ts'
import type { WorkspaceAccess, WorkspaceService } from '#server/features/workspaces/workspace.service.ts'
import type { Logger } from '#server/logger.ts'
import { createSessionLookup, type SessionRecord, type ViewedBy } from './session-lookup.ts'

/** What a request presented (server/http/credentials.ts reads it from the request). */
export type Credential =
  | { kind: 'api-key'; key: string }
  | { kind: 'device'; token: string; clientVersion: string | null }
  | { kind: 'bearer'; token: string }
  | { kind: 'cookie'; header: string }

/** How a signed-in request proved who it is: one of the member's sessions, API keys or connected devices (docs/decisions/031). */
export type SignedInWith =
  | { kind: 'session'; sessionId: string }
  | { kind: 'api-key'; keyId: string; workspaceId: string; scopes: ApiKeyScope[] }
  | {
      kind: 'device'
      deviceId: string
      deviceKind: DeviceKind
      workspaceId: string
      scopes: ApiKeyScope[]
      /** Why the device is past its workspace's plan: refused everywhere but its own routes. */
      overPlan?: string | null
    }

export interface SessionUser {
  id: string
  email: string
  emailVerified: boolean
  name: string
  /** Two-factor sign-in is on: a password alone does not sign in (docs/decisions/023). */
  twoFactorEnabled: boolean
  signedInWith: SignedInWith
  profile: Profile
  /**
   * The workspace this request works in (docs/decisions/021): an API key's own, or the one the
   * request names (X-Workspace-Id, or the session's remembered choice), else the personal one.
   * Null when the request names a workspace the member is not in.
   */
  workspace: WorkspaceAccess | null
  /** The profile could not be read: `profile` is the default one (spec: 'Profile loading issue'). */
  profileUnavailable?: boolean
  /** When the account is erased: its deletion waits (docs/decisions/065), and its keys and devices are refused. */
  erasesAt?: Date
  /** An admin is viewing the app as this member (docs/decisions/064): every change is refused. */
  viewedBy?: ViewedBy
}

/** Which workspace a request asks for: named explicitly (a header: must be theirs) or remembered (a cookie: falls back). */
export interface WorkspaceRequest {
  id: string
  explicit: boolean
}

export interface CurrentSession {
  user: SessionUser | null
  /** Set-Cookie values to pass on: a refreshed or cleared session cookie. */
  setCookies: string[]
  /** The credential is the member's, but their account is suspended (docs/decisions/062): `user` is null, and the API says why. */
  accountSuspended?: true
  /** The credential is the member's, but their account waits for its erasure on this day (docs/decisions/065): `user` is null. */
  accountDeletion?: Date
}

/** Resolves an API key to its member (api-key.service.ts); null for unknown, forged or revoked keys. */
export interface ApiKeyAuthenticator {
  authenticate(key: string): Promise<AuthenticatedKey | null>
  isActive(keyId: string): Promise<boolean>
}

/** Resolves a device token to its member (device.service.ts); null for unknown, forged or revoked tokens. */
export interface DeviceAuthenticator {
  authenticate(token: string, clientVersion?: string | null): Promise<AuthenticatedDevice | null>
  isActive(deviceId: string): Promise<boolean>
}

/** What a member works with while their profile cannot be read: no role, no plan, no credits. */
function defaultProfile(userId: string, fullName: string | null): Profile {
  const now = new Date()
  return {
    id: userId,
    role: 'user',
    subscriptionPlan: 'free',
    credits: 0,
    fullName,
    avatarUrl: null,
    timeZone: null,
    phone: null,
    createdAt: now,
    updatedAt: now,
  }
}

/** The request headers Better Auth reads a credential from (never an API key: Better Auth does not know them). */
export function betterAuthHeaders(credential: Credential | null): Headers {
  if (credential?.kind === 'bearer') return new Headers({ authorization: `Bearer ${credential.token}` })
  if (credential?.kind === 'cookie') return new Headers({ cookie: credential.header })
  return new Headers()
}

export function expiredSessionCookie(): string {
  return `${SESSION_COOKIE_NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`
}

/** Who is asking: a credential becomes a signed-in member, or nobody. */
export function createSessionService(deps: {
  auth: Auth
  /** Better Auth's secret: the session cookie's signature is checked with it. */
  secret: string
  db: Db
  /** Where this process hears of every write to the session's tables (PGlite): sessions are kept until one. */
  sessionDataChanges?: HeardChanges | null
  profiles: ProfileService
  workspaces: Pick<WorkspaceService, 'access'>
  apiKeys: ApiKeyAuthenticator
  devices: DeviceAuthenticator
  logger: Logger
}) {
  const { auth, db, profiles: profileService, workspaces, apiKeys, devices, logger } = deps

  /** The workspace the request works in (see SessionUser.workspace). */
  async function workspaceOf(
    userId: string,
    signedInWith: SignedInWith,
    requested: WorkspaceRequest | null,
  ): Promise<WorkspaceAccess | null> {
    if (signedInWith.kind === 'api-key' || signedInWith.kind === 'device') {
      if (requested?.explicit && requested.id !== signedInWith.workspaceId) return null
      return workspaces.access(userId, signedInWith.workspaceId)
    }
    if (requested && requested.id !== userId) {
      const chosen = await workspaces.access(userId, requested.id)
      if (chosen || requested.explicit) return chosen
    }
    return workspaces.access(userId, userId)
  }
  const sessionLookup = createSessionLookup(db, deps.secret, deps.sessionDataChanges)

  /** The member signed in with `signedInWith`; 'suspended' while an admin has suspended them (docs/decisions/062). */
  async function loadMember(
    userId: string,
    signedInWith: SignedInWith,
    fallbackName: string,
    requested: WorkspaceRequest | null = null,
  ): Promise<SessionUser | 'suspended' | null> {
    const [user] = await db.select().from(users).where(eq(users.id, userId))
    if (!user) return null
    if (user.suspendedAt) return 'suspended'
    const base = {
      id: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
      name: user.name,
      twoFactorEnabled: user.twoFactorEnabled,
      signedInWith,
      ...(user.eraseAfter ? { erasesAt: user.eraseAfter } : {}),
    }
    try {
      // The spec inserts a profile when one is missing; so do we.
      const profile = (await profileService.get(user.id)) ?? (await profileService.createFor(user.id, fallbackName))
      return { ...base, profile, workspace: await workspaceOf(user.id, signedInWith, requested) }
    } catch (error) {
      // The session is valid; without a readable profile the member continues with the default one.
      logger.error({ userId: user.id, error: String(error) }, 'profile could not be read; using the default profile')
      return { ...base, profile: defaultProfile(user.id, fallbackName || null), workspace: null, profileUnavailable: true }
    }
  }

  /** The member signed in with `signedInWith`, or nobody (a suspended account is nobody). */
  async function loadUser(...args: Parameters<typeof loadMember>): Promise<SessionUser | null> {
    const member = await loadMember(...args)
    return member === 'suspended' ? null : member
  }

  /** What resolve() answers for a member it loaded: nobody, but saying so when the account is suspended. */
  function resolved(member: SessionUser | 'suspended' | null, setCookies: string[] = []): CurrentSession {
    if (member === 'suspended') return { user: null, setCookies, accountSuspended: true }
    // Signing in cancels a deletion (signed-in.ts); until then nothing of the account's acts for it.
    if (member?.erasesAt) return { user: null, setCookies, accountDeletion: member.erasesAt }
    return { user: member, setCookies }
  }

  /** The member of a session the lookup found, working in `workspace`. */
  function memberOf(live: SessionRecord, workspace: WorkspaceAccess | null): SessionUser {
    const member: SessionUser = {
      ...live.user,
      signedInWith: { kind: 'session', sessionId: live.sessionId },
      profile: live.profile,
      workspace,
    }
    return live.viewedBy ? { ...member, viewedBy: live.viewedBy } : member
  }

  /** Whether a session Better Auth found is one an admin opened as the member (read afresh: this path is rare). */
  async function viewedByOf(sessionId: string): Promise<ViewedBy | null> {
    const [row] = await db
      .select({ adminId: sessions.impersonatedBy, until: sessions.expiresAt })
      .from(sessions)
      .where(eq(sessions.id, sessionId))
    return row?.adminId ? { adminId: row.adminId, until: row.until } : null
  }

  /** An unreadable session is "signed out", but a database outage is not: the caller gets 503. */
  function unlessOutage(error: unknown): null {
    if (isDatabaseUnavailable(error)) throw new DatabaseUnavailableError(error)
    return null
  }

  return {
    loadUser,

    /**
     * The member a session Better Auth just made signs in, read as their next requests will read
     * it (one query); as loadUser reads it when the lookup leaves the session to Better Auth.
     */
    async ofNewSession(session: { userId: string; token: string; name: string }): Promise<SessionUser | null> {
      // Not kept: the member's first request keeps it, as any signed-in request does.
      const live = await sessionLookup.find({ kind: 'bearer', token: session.token }, null, { keep: false }).catch(() => null)
      if (live?.user.id !== session.userId) return loadUser(session.userId, { kind: 'session', sessionId: '' }, session.name)
      return memberOf(live, live.workspace)
    },

    /** The member's access to the workspace the request opened in, read again now (null once they left it). */
    async currentWorkspace(user: SessionUser): Promise<WorkspaceAccess | null> {
      return user.workspace ? workspaces.access(user.id, user.workspace.id) : null
    },

    /**
     * The signed-in user, if any. Better Auth slides the idle timeout; we add the absolute
     * lifetime: a session older than SESSION_ABSOLUTE_SECONDS is deleted, whatever its activity.
     * An unknown or revoked API key or device token is nobody, and neither ever sets cookies.
     */
    async resolve(credential: Credential | null, requested: WorkspaceRequest | null = null): Promise<CurrentSession> {
      if (!credential) return { user: null, setCookies: [] }
      if (credential.kind === 'api-key') {
        const key = await apiKeys.authenticate(credential.key)
        const via = key && ({ kind: 'api-key', keyId: key.keyId, workspaceId: key.workspaceId, scopes: key.scopes } as const)
        return resolved(key && via ? await loadMember(key.userId, via, '', requested) : null)
      }
      if (credential.kind === 'device') {
        const device = await devices.authenticate(credential.token, credential.clientVersion)
        const via = device && {
          kind: 'device' as const,
          deviceId: device.deviceId,
          deviceKind: device.kind,
          workspaceId: device.workspaceId,
          scopes: device.scopes,
          overPlan: device.overPlan,
        }
        return resolved(device && via ? await loadMember(device.userId, via, '', requested) : null)
      }
      const live = await sessionLookup.find(credential, requested?.id ?? null).catch((error: unknown) => {
        unlessOutage(error)
        logger.warn({ error: String(error) }, 'session lookup failed; asking Better Auth')
        return null
      })
      if (live) {
        // Read with the session: the workspace asked for, else the personal one. A workspace the
        // member may not open (left, removed) falls back to their own unless the request insisted.
        const workspace = live.workspace ?? (requested?.explicit ? null : await workspaces.access(live.user.id, live.user.id))
        return { user: memberOf(live, workspace), setCookies: [] }
      }
      const result = await auth.api.getSession({ headers: betterAuthHeaders(credential), returnHeaders: true }).catch(unlessOutage)
      const found = result?.response
      const setCookies = result?.headers.getSetCookie() ?? []
      if (!found) return { user: null, setCookies }
      const ageSeconds = (Date.now() - new Date(found.session.createdAt).getTime()) / 1000
      if (ageSeconds > SESSION_ABSOLUTE_SECONDS) {
        await db.delete(sessions).where(eq(sessions.id, found.session.id))
        return { user: null, setCookies: [expiredSessionCookie()] }
      }
      const member = await loadMember(found.session.userId, { kind: 'session', sessionId: found.session.id }, found.user.name, requested)
      if (member && member !== 'suspended') {
        // The lookup answers for live view-as sessions; should one come this way, it stays read-only.
        const viewedBy = await viewedByOf(found.session.id)
        if (viewedBy) return resolved({ ...member, viewedBy }, setCookies)
      }
      return resolved(member, setCookies)
    },

    /**
     * The member's role now, if what they signed in with still works: the session still exists and
     * has not expired, or the key or device is not revoked. Null once they signed out, the session ended,
     * the key was revoked or the account was suspended. Long-lived answers (event streams) ask before each delivery.
     */
    async currentRole(user: SessionUser): Promise<Role | null> {
      const via = user.signedInWith
      if (via.kind === 'api-key' || via.kind === 'device') {
        if (!(await (via.kind === 'api-key' ? apiKeys.isActive(via.keyId) : devices.isActive(via.deviceId)))) return null
        const [row] = await db
          .select({ role: profiles.role })
          .from(profiles)
          .innerJoin(users, eq(users.id, profiles.id))
          .where(and(eq(profiles.id, user.id), isNull(users.suspendedAt), isNull(users.eraseAfter)))
        return row?.role ?? null
      }
      const [row] = await db
        .select({ role: profiles.role })
        .from(sessions)
        .innerJoin(profiles, eq(profiles.id, sessions.userId))
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, via.sessionId), gt(sessions.expiresAt, new Date()), isNull(users.suspendedAt)))
      return row?.role ?? null
    },
  }
}

export type SessionService = ReturnType<typeof createSessionService>
