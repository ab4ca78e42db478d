import { z } from '@hono/zod-openapi'
import { admin, signedInRoute } from '#server/http/access.ts'
import { ValidationError } from '#common/errors.ts'
import { createRouter, errorResponses } from '#server/http/openapi.ts'
import type { UploadService } from './upload.service.ts'

const uploadCover = signedInRoute(admin('admin:content'), {
  method: 'post',
  path: '/covers',
  tags: ['Blog (admin)'],
  summary: 'Upload a cover image (multipart field `file`: PNG, JPEG or WebP, at most 2 MB); answers its URL',
  responses: {
    201: { description: 'Stored', content: { 'application/json': { schema: z.object({ data: z.object({ url: z.string() }) }) } } },
    ...errorResponses(400),
    413: { description: 'Larger than 2 MB' },
  },
})

export function createUploadsApi(uploads: UploadService) {
  // The size limit (2 MB and the multipart framing) is the app's, by path: server/http/body-limit.ts.
  return createRouter().openapi(uploadCover, async (c) => {
    const form = await c.req.formData().catch(() => null)
    const file = form?.get('file')
    if (!file || typeof file === 'string')
      throw new ValidationError('file: Choose an image to upload.', [{ path: 'file', message: 'Choose an image to upload.' }])
    return c.json({ data: { url: await uploads.saveCover(file) } }, 201)
  })
}
