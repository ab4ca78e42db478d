import type { Route } from './+types/blog-cover'
import { renderBlogCoverSvg } from '#common/blog-cover.ts'

// GET /blog/covers/{slug}.svg: the generated cover of a published post (decisions.md, covers).
export async function loader({ params, context }: Route.LoaderArgs) {
  const match = /^(.+)\.svg$/.exec(params.file)
  const title = match?.[1] ? await context.services.blog.getPublishedTitle(match[1]) : null
  if (!title)
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
  return new Response(renderBlogCoverSvg(title), {
    headers: {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    },
  })
}
