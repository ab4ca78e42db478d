import { randomBytes } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env.ts'

/**
 * Security headers on every response. Pages get a per-request nonce that React Router puts on
 * its inline scripts, so script-src needs no 'unsafe-inline' in production.
 */
export function securityHeaders(options: { isProduction: boolean }) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const nonce = randomBytes(16).toString('base64')
    c.set('cspNonce', nonce)
    await next()
    const headers = c.res.headers
    headers.set('Content-Security-Policy', contentSecurityPolicy(nonce, options.isProduction))
    headers.set('X-Content-Type-Options', 'nosniff')
    headers.set('X-Frame-Options', 'DENY')
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin')
    headers.set('Cross-Origin-Opener-Policy', 'same-origin')
    headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()')
    if (options.isProduction) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
  })
}

function contentSecurityPolicy(nonce: string, isProduction: boolean): string {
  const directives = [
    "default-src 'self'",
    // Vite's dev server injects its own inline scripts and evaluates modules; production does not.
    isProduction ? `script-src 'self' 'nonce-${nonce}'` : `script-src 'self' 'nonce-${nonce}' 'unsafe-eval'`,
    // Radix and sonner set inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    isProduction ? "connect-src 'self'" : "connect-src 'self' ws: wss:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ]
  return directives.join('; ')
}
