import type { Route } from './+types/og-image'
import { normaliseOgTitle, renderOgImage } from '#app/lib/og-image.server.tsx'

// GET /og.png?title=...: the social card every page's og:image points at (app/lib/seo.ts).
export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteName } = await context.services.settings.get()
  const title = normaliseOgTitle(new URL(request.url).searchParams.get('title'), siteName)
  const png = await renderOgImage(title, siteName)
  return new Response(png, {
    headers: { 'Content-Type': 'image/png', 'Content-Length': String(png.byteLength), 'Cache-Control': 'public, max-age=86400' },
  })
}
