import { randomBytes } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'

/**
 * Security headers on every response. Pages get a per-request nonce that React Router puts on
 * its inline scripts, so script-src needs no 'unsafe-inline' in production.
 */
export function securityHeaders(options: { isProduction: boolean; analytics?: boolean; paddle?: boolean }) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const nonce = randomBytes(16).toString('base64')
    c.set('cspNonce', nonce)
    await next()
    const headers = c.res.headers
    headers.set(
      'Content-Security-Policy',
      contentSecurityPolicy(nonce, options.isProduction, options.analytics ?? false, options.paddle ?? false),
    )
    headers.set('X-Content-Type-Options', 'nosniff')
    headers.set('X-Frame-Options', 'DENY')
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin')
    headers.set('Cross-Origin-Opener-Policy', 'same-origin')
    headers.set(
      'Permissions-Policy',
      `camera=(), microphone=(), geolocation=(), payment=${options.paddle ? `(self ${PADDLE_CHECKOUT_ORIGINS})` : '()'}`,
    )
    if (options.isProduction) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
  })
}

// Google Analytics, allowed only when an analytics id is configured (and then loaded only after consent).
const ANALYTICS_SCRIPT = 'https://www.googletagmanager.com'
const ANALYTICS_CONNECT = 'https://*.google-analytics.com https://*.analytics.google.com https://www.googletagmanager.com'

// Paddle's checkout (Paddle.js from its CDN, the checkout in its iframe), only when Paddle is configured.
const PADDLE_SCRIPT = 'https://cdn.paddle.com'
const PADDLE_ORIGINS = 'https://*.paddle.com'
const PADDLE_CHECKOUT_ORIGINS = '"https://buy.paddle.com" "https://sandbox-buy.paddle.com"'

function contentSecurityPolicy(nonce: string, isProduction: boolean, analytics: boolean, paddle: boolean): string {
  const script = [
    `'self'`,
    `'nonce-${nonce}'`,
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
    paddle ? `frame-src ${PADDLE_ORIGINS}` : "frame-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ]
  return directives.join('; ')
}
