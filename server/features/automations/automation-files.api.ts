import { z } from '@hono/zod-openapi'
import { fileName, MAX_AUTOMATION_FILE_BYTES, MAX_AUTOMATION_FILES } from '#common/file-steps.ts'
import { ValidationError } from '#common/errors.ts'
import { attachmentHeaders } from '#server/http/attachment.ts'
import { callerOf, member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, ownedResourceParams } from '#server/http/openapi.ts'
import type { AutomationFileSummary } from './automation-files.ts'
import type { AutomationService } from './automation.service.ts'

// /automations/{id}/files: files kept with an automation (docs/decisions/046), which its upload
// steps choose in a file input when the run has no file of that name.

const tags = ['Automations']
const fileParams = ownedResourceParams.extend({ name: fileName() })
const listSchema = z.array(z.object({ name: z.string(), size: z.number().int(), createdAt: z.string() }))
const answer = { 'application/json': { schema: z.object({ data: listSchema }) } }
const toDto = (files: AutomationFileSummary[]) => files.map((file) => ({ ...file, createdAt: file.createdAt.toISOString() }))

const list = signedInRoute(member('automations', 'viewer'), {
  method: 'get',
  path: '/{id}/files',
  tags,
  summary: 'The files kept with an automation for its upload steps: name, size in bytes, when kept',
  request: { params: ownedResourceParams },
  responses: { 200: { description: 'The files', content: answer }, ...errorResponses(400, 404) },
})

const download = signedInRoute(member('automations', 'viewer'), {
  method: 'get',
  path: '/{id}/files/{name}',
  tags,
  summary: 'A file kept with an automation: always as an attachment, never shown in the browser',
  request: { params: fileParams },
  responses: {
    200: { description: 'The file', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
    ...errorResponses(400, 404),
  },
})

const keep = signedInRoute(member('automations', 'member'), {
  method: 'put',
  path: '/{id}/files/{name}',
  tags,
  summary: 'Keep a file with an automation under this name, in place of one of the same name',
  description:
    `The body is the file itself (any Content-Type), at most ${MAX_AUTOMATION_FILE_BYTES / 1024 / 1024} MB (413 over it); ` +
    `an automation keeps at most ${MAX_AUTOMATION_FILES} files. An upload step names it by \`name\`.`,
  request: {
    params: fileParams,
    body: { content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } }, required: true },
  },
  responses: { 200: { description: 'The files now kept', content: answer }, ...errorResponses(400, 403, 404, 413) },
})

const remove = signedInRoute(member('automations', 'member'), {
  method: 'delete',
  path: '/{id}/files/{name}',
  tags,
  summary: 'Remove a file kept with an automation',
  request: { params: fileParams },
  responses: { 200: { description: 'The files now kept', content: answer }, ...errorResponses(400, 403, 404) },
})

export function createAutomationFilesApi(automations: AutomationService) {
  return createRouter()
    .openapi(list, async (c) => {
      return c.json({ data: toDto(await automations.files(c.req.valid('param').id, callerOf(c.get('member')))) }, 200)
    })
    .openapi(download, async (c) => {
      const { id, name } = c.req.valid('param')
      const bytes = await automations.fileBytes(id, callerOf(c.get('member')), name)
      return c.body(new Uint8Array(bytes), 200, attachmentHeaders(name))
    })
    .openapi(keep, async (c) => {
      const { id, name } = c.req.valid('param')
      const bytes = c.get('body')
      if (!bytes?.byteLength) throw new ValidationError('The file is empty: send its bytes as the body.')
      return c.json({ data: toDto(await automations.keepFile(id, callerOf(c.get('member')), { name, bytes })) }, 200)
    })
    .openapi(remove, async (c) => {
      const { id, name } = c.req.valid('param')
      return c.json({ data: toDto(await automations.removeFile(id, callerOf(c.get('member')), name)) }, 200)
    })
}
