import type { Route } from './+types/og-image'
import { normaliseOgTitle, ogImageCached, renderOgImage } from '#app/lib/og-image.server.tsx'
import { OG_IMAGE_PURPOSE } from '#app/lib/seo.server.ts'
import { RateLimited } from '#common/errors.ts'

/** Cards drawn (not served from memory) per client and minute: about 37 ms of CPU each. */
const RENDERS_PER_MINUTE = { limit: 20, windowSeconds: 60, message: 'Too many social cards drawn. Please try again in a minute.' }

// GET /og.png?title=...&sig=...: the social card every page's og:image points at (app/lib/seo.server.ts).
// Only titles our pages signed are drawn; without a title it is the site's own card.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteName } = await context.services.settings.get()
  const params = new URL(request.url).searchParams
  const raw = params.get('title')
  if (raw !== null && !context.services.urlSigner.verify(OG_IMAGE_PURPOSE, raw, params.get('sig'))) {
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  }
  const title = normaliseOgTitle(raw, siteName)
  if (!ogImageCached(title, siteName)) {
    const refused = await context.services.rateLimits
      .consume(`og-image:ip:${context.clientIp}`, RENDERS_PER_MINUTE)
      .then(() => null)
      .catch((error: unknown) => {
        if (error instanceof RateLimited) return error
        throw error
      })
    if (refused) {
      return new Response(refused.message, { status: 429, headers: { 'Retry-After': String(refused.retryAfterSeconds) } })
    }
  }
  const png = await renderOgImage(title, siteName)
  return new Response(png, {
    headers: { 'Content-Type': 'image/png', 'Content-Length': String(png.byteLength), 'Cache-Control': 'public, max-age=86400' },
  })
}
