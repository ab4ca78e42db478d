import { createRoute, type RouteConfig } from '@hono/zod-openapi'
import { createMiddleware } from 'hono/factory'
import { API_KEY_CREDENTIALS_MESSAGE, API_KEY_SESSION_ONLY_MESSAGE, missingScopeMessage, type ApiKeyScope } from '#common/api-keys.ts'
import { callerOf } from '#common/auth.ts'
import { DEVICE_ONLY_MESSAGE, DEVICE_REFUSED_MESSAGE } from '#common/devices.ts'
import { hasRole, workspaceRoleRefusal, type WorkspaceRole } from '#common/workspaces.ts'
import { BearerTokenRefused, Forbidden, Unauthorized } from '#common/errors.ts'
import { AccountSuspended } from '#common/suspension.ts'
import { AccountDeletionPending } from '#common/account-data.ts'
import { lacksRequiredTwoFactor, TwoFactorRequired } from '#common/two-factor-requirement.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { AppEnv } from './app-env.ts'
import { errorResponses } from './openapi.ts'

// Who may call an /api route is declared on the route (ADR 015), and read from that one
// declaration three times: by the route's first middleware, which answers 401/403 before the
// path, query and body are validated and before the handler reads anything; by the OpenAPI
// document (`security` and `x-access`); and by the authorisation matrix and property tests.

/** What an API key needs for a route: one of its scopes, any key at all, or never a key (a session only). */
export type KeyRule = ApiKeyScope | 'any' | 'never'

export interface AccessRule {
  /** 'member': anyone signed in; 'admin': signed in with the admin role. */
  who: 'member' | 'admin'
  apiKey: KeyRule
  /** The least role the caller needs in the workspace the request works in (docs/decisions/021); unset: no workspace involved. */
  workspaceRole?: WorkspaceRole
  /** Only a connected device's own token may call it (docs/decisions/031): a session or an API key is refused (403). */
  deviceOnly?: true
  /** A device past its workspace's plan may call it still: it reads or disconnects itself. */
  evenPastPlan?: true
}

export interface SignedInAccess extends AccessRule {
  /**
   * A stricter rule for requests whose raw query names this value (GET /runs?scope=all): decided
   * from the query string as sent, before it is validated.
   */
  whenQuery?: { name: string; value: string; rule: AccessRule }
}

/** Anyone signed in; with a workspace role, only those who have at least it in the request's workspace. */
export const member = (apiKey: KeyRule, workspaceRole?: WorkspaceRole): SignedInAccess =>
  workspaceRole ? { who: 'member', apiKey, workspaceRole } : { who: 'member', apiKey }
export const admin = (apiKey: Exclude<KeyRule, 'any'>): SignedInAccess => ({ who: 'admin', apiKey })
/** Only a device's own token, in its own workspace (a runner taking its runs). */
export const deviceItself = (): SignedInAccess => ({ who: 'member', apiKey: 'never', workspaceRole: 'viewer', deviceOnly: true })
/** A device's own record: read or disconnected by its token, even past its workspace's plan. */
export const deviceOwnRecord = (): SignedInAccess => ({ ...deviceItself(), evenPastPlan: true })

/** What the route's handler can read once the access rule let the request in. */
export type SignedInEnv = { Variables: { member: SessionUser } }

export { callerOf }

/** Whether a rule lets this member in; the error that refuses them otherwise. */
export function refusal(user: SessionUser | null, rule: AccessRule): Unauthorized | Forbidden | TwoFactorRequired | null {
  if (!user) return new Unauthorized()
  if (rule.who === 'admin' && user.profile.role !== 'admin') return new Forbidden('Admin access required.')
  if (rule.workspaceRole) {
    if (!user.workspace) return new Forbidden('You are not a member of this workspace.')
    const refused = workspaceRoleRefusal(user.workspace.role, rule.workspaceRole, 'This')
    if (refused) return refused
    // A team that requires two-factor sign-in refuses its members without it, whatever they call (docs/decisions/023).
    if (lacksRequiredTwoFactor(user)) return new TwoFactorRequired()
  }
  const via = user.signedInWith
  if (via.kind === 'device' && via.overPlan && !rule.evenPastPlan) return new Forbidden(via.overPlan)
  if (rule.deviceOnly) return via.kind === 'device' ? null : new Forbidden(DEVICE_ONLY_MESSAGE)
  // A device is narrower than a key (docs/decisions/031): it passes only where the rule names a
  // scope it holds and needs no more than the Member role, never on routes open to any key (the
  // account's own settings and keys) nor on session-only ones.
  if (via.kind === 'device') {
    const scoped = rule.apiKey !== 'any' && rule.apiKey !== 'never' && via.scopes.includes(rule.apiKey)
    return scoped && hasRole('member', rule.workspaceRole ?? 'viewer') ? null : new Forbidden(DEVICE_REFUSED_MESSAGE)
  }
  if (via.kind !== 'api-key' || rule.apiKey === 'any') return null
  if (rule.apiKey === 'never') return new Forbidden(rule.who === 'admin' ? API_KEY_SESSION_ONLY_MESSAGE : API_KEY_CREDENTIALS_MESSAGE)
  return via.scopes.includes(rule.apiKey) ? null : new Forbidden(missingScopeMessage(rule.apiKey))
}

/** Whether a signed-in member may act as an admin for a scope (for answers that differ by role, like drafts in GET /blog). */
export function actsAsAdmin(user: SessionUser | null, scope: ApiKeyScope): boolean {
  // Most callers are visitors or members: answered without making the refusal (and its stack).
  if (user?.profile.role !== 'admin') return false
  return refusal(user, { who: 'admin', apiKey: scope }) === null
}

/** The rule as middleware: 401/403 before anything else looks at the request (for routes outside the document too). */
export function authorize(access: SignedInAccess) {
  return createMiddleware<AppEnv & SignedInEnv>(async (c, next) => {
    const stricter = access.whenQuery
    const rule = stricter && c.req.queries(stricter.name)?.includes(stricter.value) ? stricter.rule : access
    const user = c.get('user')
    // A suspended member's key or device is theirs still: 403 with the reason, not 401 (docs/decisions/062).
    if (!user && c.get('accountSuspended')) throw new AccountSuspended()
    // So is the key or device of an account whose deletion waits: signing in cancels it (docs/decisions/065).
    const erasesAt = c.get('accountDeletion')
    if (!user && erasesAt) throw new AccountDeletionPending(erasesAt)
    if (!user && /^Bearer\s/i.test(c.req.header('authorization') ?? '')) throw new BearerTokenRefused()
    const refused = refusal(user, rule)
    if (refused) throw refused
    c.set('member', user as SessionUser)
    await next()
  })
}

/**
 * The document's `security`: a session always (a device's own routes: its token only), an API key
 * unless the rule says never (with its scope, if any), a device token where the rule names a scope.
 */
function securityOf(access: SignedInAccess): Record<string, string[]>[] {
  if (access.deviceOnly) return [{ deviceAuth: [] }]
  const sessions: Record<string, string[]>[] = [{ bearerAuth: [] }, { cookieAuth: [] }]
  if (access.apiKey === 'never') return sessions
  if (access.apiKey === 'any') return [...sessions, { apiKeyAuth: [] }]
  return [...sessions, { apiKeyAuth: [access.apiKey] }, { deviceAuth: [access.apiKey] }]
}

type RouteWithoutAccess = Omit<RouteConfig, 'security' | 'middleware'>

/** A route anyone may call (what it shows may still depend on who asks: then it lists the optional `security`). */
export function publicRoute<P extends string, R extends Omit<RouteConfig, 'middleware'> & { path: P }>(config: R) {
  return createRoute({ ...config, 'x-access': 'anyone' })
}

/** A route for signed-in callers, refused with 401/403 before anything else looks at the request. */
export function signedInRoute<P extends string, R extends RouteWithoutAccess & { path: P }>(access: SignedInAccess, config: R) {
  return createRoute({
    ...config,
    responses: { ...errorResponses(401, 403), ...config.responses } as R['responses'],
    security: securityOf(access),
    middleware: authorize(access),
    'x-access': access,
  })
}
