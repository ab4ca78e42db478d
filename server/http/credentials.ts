import { API_KEY_PREFIX } from '#common/api-keys.ts'
import { SESSION_COOKIE_NAME } from '#server/auth.ts'
import type { Credential } from '#server/features/auth/session.service.ts'

/**
 * The one credential a request carries, read here and nowhere else. The API takes an API key or a
 * session token (`Authorization: Bearer ...`, read as Better Auth's bearer plugin reads it) before
 * the session cookie; an API key alone decides who is asking. Pages are for browsers: they take
 * the session cookie only, so a key or token can never drive a page action.
 */
export function credentialOf(headers: Headers, options: { cookieOnly?: boolean } = {}): Credential | null {
  const authorization = headers.get('authorization')
  if (!options.cookieOnly && authorization && authorization.slice(0, 7).toLowerCase() === 'bearer ') {
    const token = authorization.slice(7).trim()
    if (token.startsWith(API_KEY_PREFIX)) return { kind: 'api-key', key: token }
    if (token) return { kind: 'bearer', token }
  }
  const cookie = headers.get('cookie')
  return cookie?.includes(SESSION_COOKIE_NAME) ? { kind: 'cookie', header: cookie } : null
}
