import { createCookie } from 'react-router'
import { THEMES, type Theme } from '#common/settings.ts'
import { sameSitePath } from '#common/same-site-path.ts'

const YEAR = 60 * 60 * 24 * 365

// Functional cookies listed on the cookie policy: the visitor's colour scheme and cookie choice.
const themeCookie = createCookie('aether_theme', { path: '/', sameSite: 'lax', httpOnly: true, maxAge: YEAR })
const consentCookie = createCookie('aether_consent', { path: '/', sameSite: 'lax', httpOnly: true, maxAge: YEAR })

export type Consent = 'accepted' | 'rejected'

export async function readTheme(request: Request): Promise<Theme | null> {
  const value: unknown = await themeCookie.parse(request.headers.get('cookie'))
  return THEMES.includes(value as Theme) ? (value as Theme) : null
}

export function themeHeader(theme: Theme): Promise<string> {
  return themeCookie.serialize(theme)
}

export async function readConsent(request: Request): Promise<Consent | null> {
  const value: unknown = await consentCookie.parse(request.headers.get('cookie'))
  return value === 'accepted' || value === 'rejected' ? value : null
}

export function consentHeader(consent: Consent): Promise<string> {
  return consentCookie.serialize(consent)
}

/** Expires Google Analytics' cookies when a visitor rejects (or withdraws) consent. */
export function analyticsCookieRemovals(request: Request): string[] {
  const host = new URL(request.url).hostname
  const domains = [undefined, host, `.${host.split('.').slice(-2).join('.')}`]
  const names = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((part) => part.trim().split('=')[0] ?? '')
    .filter((name) => name === '_ga' || name === '_gid' || name.startsWith('_ga_'))
  return names.flatMap((name) => domains.map((domain) => `${name}=; Path=/; Max-Age=0${domain ? `; Domain=${domain}` : ''}`))
}

/** Where to send the visitor back to after a preference form: a same-site path only. */
export function safeReturnPath(value: FormDataEntryValue | null): string {
  return sameSitePath(value) ?? '/'
}
