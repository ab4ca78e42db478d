import { API_KEY_PREFIX } from '#common/api-keys.ts'
import { CLIENT_VERSION_HEADER, DEVICE_TOKEN_PREFIX } from '#common/devices.ts'
import { SESSION_COOKIE_NAME } from '#server/auth.ts'
import { parse as parseCookies } from 'hono/utils/cookie'
import { WORKSPACE_COOKIE, WORKSPACE_HEADER } from '#common/workspaces.ts'
import type { Credential, WorkspaceRequest } from '#server/features/auth/session.service.ts'

/**
 * The one credential a request carries, read here and nowhere else. The API takes an API key, a
 * device token (with the version the device reports, docs/decisions/031) or a session token
 * (`Authorization: Bearer ...`, read as Better Auth's bearer plugin reads it) before the session
 * cookie; a key or a device token alone decides who is asking. Pages are for browsers: they take
 * the session cookie only, so a key or token can never drive a page action.
 */
export function credentialOf(headers: Headers, options: { cookieOnly?: boolean } = {}): Credential | null {
  const authorization = headers.get('authorization')
  if (!options.cookieOnly && authorization && authorization.slice(0, 7).toLowerCase() === 'bearer ') {
    const token = authorization.slice(7).trim()
    if (token.startsWith(API_KEY_PREFIX)) return { kind: 'api-key', key: token }
    if (token.startsWith(DEVICE_TOKEN_PREFIX)) return { kind: 'device', token, clientVersion: headers.get(CLIENT_VERSION_HEADER) }
    if (token) return { kind: 'bearer', token }
  }
  const cookie = headers.get('cookie')
  return cookie?.includes(SESSION_COOKIE_NAME) ? { kind: 'cookie', header: cookie } : null
}

/**
 * The workspace a request asks to work in (docs/decisions/021): the API's X-Workspace-Id header
 * names it explicitly (a workspace the caller is not in is refused); a browser session remembers
 * its choice in a cookie (a stale one falls back to the personal workspace). Pages read the cookie only.
 */
export function workspaceRequestOf(headers: Headers, options: { cookieOnly?: boolean } = {}): WorkspaceRequest | null {
  const named = options.cookieOnly ? null : headers.get(WORKSPACE_HEADER)?.trim()
  if (named) return { id: named.slice(0, 100), explicit: true }
  const cookie = headers.get('cookie')
  const remembered = cookie?.includes(WORKSPACE_COOKIE) ? parseCookies(cookie, WORKSPACE_COOKIE)[WORKSPACE_COOKIE] : undefined
  return remembered ? { id: remembered.slice(0, 100), explicit: false } : null
}
