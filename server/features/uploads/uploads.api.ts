import { createRoute, z } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { COVER_MAX_BYTES } from '#common/blog.ts'
import { ValidationError } from '#common/errors.ts'
import { requireAdmin } from '#server/http/guards.ts'
import { bearerSecurity, createRouter, errorResponses } from '#server/http/openapi.ts'
import type { UploadService } from './upload.service.ts'

const uploadCover = createRoute({
  method: 'post',
  path: '/covers',
  tags: ['Blog (admin)'],
  summary: 'Upload a cover image (multipart field `file`: PNG, JPEG or WebP, at most 2 MB); answers its URL',
  security: bearerSecurity,
  responses: {
    201: { description: 'Stored', content: { 'application/json': { schema: z.object({ data: z.object({ url: z.string() }) }) } } },
    ...errorResponses(400, 401, 403),
    413: { description: 'Larger than 2 MB' },
  },
})

export function createUploadsApi(uploads: UploadService) {
  const router = createRouter()
  router.use(
    '/covers',
    bodyLimit({
      maxSize: COVER_MAX_BYTES + 64 * 1024,
      onError: (c) => c.json({ message: 'The image is larger than 2 MB.', code: 'PAYLOAD_TOO_LARGE' }, 413),
    }),
  )
  return router.openapi(uploadCover, async (c) => {
    requireAdmin(c)
    const form = await c.req.formData().catch(() => null)
    const file = form?.get('file')
    if (!file || typeof file === 'string')
      throw new ValidationError('file: Choose an image to upload.', [{ path: 'file', message: 'Choose an image to upload.' }])
    return c.json({ data: { url: await uploads.saveCover(file) } }, 201)
  })
}
