import type { Route } from './+types/blog-rss'
import { escapeXml } from '#common/xml.ts'

const FEED_SIZE = 50

// GET /blog/rss.xml: RSS 2.0 of the newest published posts, with absolute links.
export async function loader({ context }: Route.LoaderArgs) {
  const [posts, settings] = await Promise.all([context.services.blog.listPublishedSummaries(FEED_SIZE), context.services.settings.get()])
  const base = context.publicUrl
  const items = posts.map((post) => {
    const link = `${base}/blog/${encodeURIComponent(post.slug)}`
    return [
      '    <item>',
      `      <title>${escapeXml(post.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      post.excerpt ? `      <description>${escapeXml(post.excerpt)}</description>` : null,
      post.authorName ? `      <dc:creator>${escapeXml(post.authorName)}</dc:creator>` : null,
      post.publishedAt ? `      <pubDate>${post.publishedAt.toUTCString()}</pubDate>` : null,
      '    </item>',
    ]
      .filter(Boolean)
      .join('\n')
  })
  const newest = posts[0]?.publishedAt ?? posts[0]?.updatedAt
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    <title>${escapeXml(`${settings.siteName} Blog`)}</title>`,
    `    <link>${escapeXml(`${base}/blog`)}</link>`,
    `    <atom:link href="${escapeXml(`${base}/blog/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    '    <description>AI, technology, and innovation</description>',
    '    <language>en</language>',
    newest ? `    <lastBuildDate>${newest.toUTCString()}</lastBuildDate>` : null,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ]
    .filter((line) => line !== null)
    .join('\n')
  return new Response(body, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=600' } })
}
