import type { Route } from './+types/robots'

const DISALLOWED = ['/dashboard', '/settings', '/billing', '/admin', '/diagnostics', '/api/']

// GET /robots.txt: crawl the public site, not the member and admin areas; the sitemap's address.
export function loader({ context }: Route.LoaderArgs) {
  const body = [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${context.publicUrl}/sitemap.xml`,
    '',
  ].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
