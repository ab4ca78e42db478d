import type { Route } from './+types/uploaded-cover'
import { AppError } from '#common/errors.ts'

// GET /uploads/covers/{uuid}.{png|jpg|webp}: a cover an admin uploaded. The name never changes
// for a file, so browsers and CDNs may keep it for a year.
export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const { bytes, type } = await context.services.uploads.readCover(params.file)
    return new Response(new Uint8Array(bytes), {
      headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable', 'Content-Disposition': 'inline' },
    })
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
  }
}
