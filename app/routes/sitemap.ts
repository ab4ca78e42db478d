import type { Route } from './+types/sitemap'
import { escapeXml } from '#common/xml.ts'

const PUBLIC_PAGES = [
  '/',
  '/services',
  '/about',
  '/blog',
  '/careers',
  '/contact',
  '/legal',
  '/terms',
  '/privacy',
  '/cookies',
  '/acceptable-use',
]

// GET /sitemap.xml: every public page and every published post (with its last change).
export async function loader({ context }: Route.LoaderArgs) {
  const posts = await context.services.blog.listPublishedSummaries()
  const entry = (path: string, lastmod?: Date) =>
    `  <url><loc>${escapeXml(`${context.publicUrl}${path}`)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...PUBLIC_PAGES.map((path) => entry(path, path === '/blog' ? posts[0]?.updatedAt : undefined)),
    ...posts.map((post) => entry(`/blog/${encodeURIComponent(post.slug)}`, post.updatedAt)),
    '</urlset>',
    '',
  ].join('\n')
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
