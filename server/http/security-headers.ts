import { randomBytes } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'

export interface SecurityHeaderOptions {
  isProduction: boolean
  analytics?: boolean
  paddle?: boolean
  /** Pages that frame pages of their own origin (the trace viewer's snapshots), and may be framed by them. */
  framesOwn?: boolean
}

/**
 * Security headers on every response. Pages get a per-request nonce that React Router puts on
 * its inline scripts, so script-src needs no 'unsafe-inline' in production. A kept public page
 * (page-cache.ts) carries the same headers with the hashes of its inline scripts instead
 * (docs/decisions/033).
 */
export function securityHeaders(options: SecurityHeaderOptions) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const nonce = nextNonce()
    c.set('cspNonce', nonce)
    await next()
    const headers = c.res.headers
    for (const [name, value] of securityHeaderList(options, [`'nonce-${nonce}'`])) headers.set(name, value)
  })
}

const NONCE_BYTES = 16
/** Random bytes for the next 256 nonces, drawn at once: one call to the system's generator instead of one per request. */
let noncePool = Buffer.alloc(0)
let nonceOffset = 0

/** A fresh nonce: 16 bytes from the cryptographic generator, in base64, never handed out twice. */
export function nextNonce(): string {
  if (nonceOffset + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(NONCE_BYTES * 256)
    nonceOffset = 0
  }
  const nonce = noncePool.toString('base64', nonceOffset, nonceOffset + NONCE_BYTES)
  nonceOffset += NONCE_BYTES
  return nonce
}

/**
 * The security headers of an answer whose inline scripts are allowed by `scriptSources`: this
 * request's `'nonce-…'`, or the `'sha256-…'` hashes of a kept page's scripts. Names in lower case,
 * as Headers gives them.
 */
export function securityHeaderList(options: SecurityHeaderOptions, scriptSources: readonly string[]): [string, string][] {
  const paddle = options.paddle ?? false
  const headers: [string, string][] = [
    [
      'content-security-policy',
      contentSecurityPolicy(scriptSources, options.isProduction, options.analytics ?? false, paddle, options.framesOwn ?? false),
    ],
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', options.framesOwn ? 'SAMEORIGIN' : 'DENY'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['permissions-policy', `camera=(), microphone=(), geolocation=(), payment=${paddle ? `(self ${PADDLE_CHECKOUT_ORIGINS})` : '()'}`],
  ]
  if (options.isProduction) headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains'])
  return headers
}

// Google Analytics, allowed only when an analytics id is configured (and then loaded only after consent).
const ANALYTICS_SCRIPT = 'https://www.googletagmanager.com'
const ANALYTICS_CONNECT = 'https://*.google-analytics.com https://*.analytics.google.com https://www.googletagmanager.com'

// Paddle's checkout (Paddle.js from its CDN, the checkout in its iframe), only when Paddle is configured.
const PADDLE_SCRIPT = 'https://cdn.paddle.com'
const PADDLE_ORIGINS = 'https://*.paddle.com'
const PADDLE_CHECKOUT_ORIGINS = '"https://buy.paddle.com" "https://sandbox-buy.paddle.com"'
const PADDLE_PORTAL_ORIGINS = 'https://customer-portal.paddle.com https://sandbox-customer-portal.paddle.com'

function contentSecurityPolicy(
  scriptSources: readonly string[],
  isProduction: boolean,
  analytics: boolean,
  paddle: boolean,
  framesOwn: boolean,
): string {
  const script = [
    `'self'`,
    ...scriptSources,
    isProduction ? '' : `'unsafe-eval'`,
    analytics ? ANALYTICS_SCRIPT : '',
    paddle ? PADDLE_SCRIPT : '',
  ]
  const connect = [`'self'`, isProduction ? '' : 'ws: wss:', analytics ? ANALYTICS_CONNECT : '', paddle ? PADDLE_ORIGINS : '']
  const directives = [
    "default-src 'self'",
    // Vite's dev server injects its own inline scripts and evaluates modules; production does not.
    `script-src ${script.filter(Boolean).join(' ')}`,
    // Radix and sonner set inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    analytics ? "img-src 'self' data: blob: https://*.google-analytics.com https://*.googletagmanager.com" : "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.filter(Boolean).join(' ')}`,
    // The trace viewer's empty snapshot is a data: page (an opaque origin of its own).
    framesOwn ? "frame-src 'self' data:" : paddle ? `frame-src ${PADDLE_ORIGINS}` : "frame-src 'none'",
    framesOwn ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
    "base-uri 'self'",
    // A form post may end at Paddle's customer portal: the Billing page's "Manage payment method
    // and invoices" redirects there, and browsers hold a form's redirects to form-action.
    paddle ? `form-action 'self' ${PADDLE_PORTAL_ORIGINS}` : "form-action 'self'",
    "object-src 'none'",
  ]
  return directives.join('; ')
}
