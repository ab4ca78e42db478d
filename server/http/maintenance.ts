import { createMiddleware } from 'hono/factory'
import type { SettingsService } from '#server/features/settings/settings.service.ts'
import { MAINTENANCE_MESSAGE } from '#common/settings.ts'
import type { AppEnv } from './app-env.ts'

const RETRY_AFTER_SECONDS = 300

/**
 * System Settings' maintenance mode: everyone but admins gets 503 with Retry-After. Signing in
 * stays open (so an admin can get in and switch it off), and so do health checks and payment
 * webhooks (Paddle would otherwise retry for days). React Router's route discovery (/__manifest)
 * stays open too: the sign-in page's links and redirects fetch it, and it holds only which route
 * modules exist, no data.
 */
const OPEN_PATHS = [
  /^\/auth(\.data)?$/,
  /^\/__manifest$/,
  /^\/sign-out(\.data)?$/,
  // An admin with two-factor or a passkey signs in in two calls, or through the passkey ones.
  /^\/api\/auth\/(login|login\/second-factor|login\/passkey|login\/passkey\/options|logout|me)$/,
  /^\/api\/health$/,
  /^\/api\/identity\//,
  /^\/api\/webhooks\//,
  /^\/(favicon\.svg|robots\.txt)$/,
]

export function maintenanceMode(settings: SettingsService) {
  return createMiddleware<AppEnv>(async (c, next) => {
    // Open paths first: a health check must answer without the settings (their cache may have
    // expired while the database is away, and /api/health reports that outage).
    if (OPEN_PATHS.some((pattern) => pattern.test(c.req.path))) return next()
    if (!(await settings.get()).maintenanceMode) return next()
    if (c.get('user')?.profile.role === 'admin') return next()
    c.header('Retry-After', String(RETRY_AFTER_SECONDS))
    c.header('Cache-Control', 'no-store')
    if (c.req.path.startsWith('/api/')) return c.json({ message: MAINTENANCE_MESSAGE, code: 'MAINTENANCE' }, 503)
    const { siteName } = await settings.get()
    return c.html(
      unavailablePage({
        title: `Down for maintenance | ${siteName}`,
        heading: `${siteName} is down for maintenance`,
        message: MAINTENANCE_MESSAGE,
        signInLink: true,
      }),
      503,
    )
  })
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char)

/**
 * A self-contained 503 page (no scripts, no stylesheet, no database): for maintenance mode, and
 * for a database outage (error-handler.ts), when React Router's pages cannot be rendered.
 */
export function unavailablePage(options: {
  title: string
  heading: string
  message: string
  signInLink?: boolean
  /** Instead of "Try again": where to go from here (a refused change: back to the page). */
  link?: { href: string; text: string }
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(options.title)}</title>
<style>
  :root { color-scheme: dark light; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; font-family: system-ui, sans-serif; background: #0b0d12; color: #e8eaf0; }
  main { max-width: 32rem; padding: 2rem; text-align: center; }
  h1 { font-size: 1.75rem; margin: 0 0 1rem; }
  p { line-height: 1.6; color: #b4b9c8; }
  a { color: #9ea8ff; }
  @media (prefers-color-scheme: light) { body { background: #fff; color: #0b0d12; } p { color: #4a5060; } a { color: #3b46d1; } }
</style>
</head>
<body>
<main>
  <h1>${escapeHtml(options.heading)}</h1>
  <p>${escapeHtml(options.message)}</p>
  ${options.signInLink ? '<p><a href="/auth">Administrators can sign in</a></p>' : options.link ? `<p><a href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.text)}</a></p>` : '<p><a href="">Try again</a></p>'}
</main>
</body>
</html>`
}
