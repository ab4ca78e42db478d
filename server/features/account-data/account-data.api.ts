import { z } from '@hono/zod-openapi'
import { accountDeletionSchema, ACCOUNT_DELETION_GRACE_DAYS, DATA_EXPORT_LINK_DAYS, DATA_EXPORT_STATUSES } from '#common/account-data.ts'
import { SESSION_COOKIE_NAME } from '#server/auth.ts'
import { member, signedInRoute } from '#server/http/access.ts'
import { attachmentHeaders } from '#server/http/attachment.ts'
import { createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import type { AccountDeletionService } from './account-deletion.service.ts'
import type { DataExportService, DataExportView } from './data-export.service.ts'

const tags = ['Account']

const exportSchema = z
  .object({
    id: z.string(),
    status: z.enum(DATA_EXPORT_STATUSES),
    requestedAt: z.string(),
    readyAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    bytes: z.number().int().nullable(),
    downloadUrl: z.string().nullable().openapi({
      description: 'While it is ready: the signed download, for this member signed in (a session token or cookie); null otherwise',
    }),
  })
  .openapi('DataExport')

const toExportDto = (view: DataExportView): z.infer<typeof exportSchema> => ({
  id: view.id,
  status: view.status,
  requestedAt: view.requestedAt.toISOString(),
  readyAt: view.readyAt?.toISOString() ?? null,
  expiresAt: view.expiresAt?.toISOString() ?? null,
  bytes: view.bytes,
  downloadUrl: view.apiUrl,
})

// A member's own data is theirs to take or delete with a session: never with an API key or a
// device token, which a script or a lost laptop may leak (docs/decisions/065).
const own = member('never')

const requestExport = signedInRoute(own, {
  method: 'post',
  path: '/export',
  tags,
  summary: 'Ask for a download of everything we hold about you (built in the background, link by e-mail)',
  description:
    `A zip with data.json (profile, account, sessions, API keys and devices without their secrets, workspaces, automations, runs with ` +
    `their logs and data, credits, subscriptions, payments, audit entries about you) and your runs' files. When it is ready we e-mail ` +
    `a signed link that works for ${DATA_EXPORT_LINK_DAYS} days, for you signed in. One at a time (409 while one is being made), one a day (429).`,
  responses: {
    202: {
      description: 'Queued',
      content: { 'application/json': { schema: z.object({ data: z.object({ id: z.string(), status: z.enum(DATA_EXPORT_STATUSES) }) }) } },
    },
    ...errorResponses(409, 429),
  },
})

const latestExport = signedInRoute(own, {
  method: 'get',
  path: '/export',
  tags,
  summary: 'Your latest data export, with its download link while it is ready (null when you never asked for one)',
  responses: {
    200: { description: 'The latest export', content: { 'application/json': { schema: z.object({ data: exportSchema.nullable() }) } } },
  },
})

const downloadExport = signedInRoute(own, {
  method: 'get',
  path: '/export/{id}/download',
  tags,
  summary: 'Download a data export (ZIP) by its signed link, signed in as its member',
  description:
    'The link from the e-mail or GET /account/export. `token` signs the export, its member and `expires`: a changed link, or ' +
    "another member's, answers 404; one past its time answers 410 (the file is deleted).",
  request: {
    params: z.object({ id: z.string().max(100) }),
    query: z.object({ expires: z.coerce.number().int(), token: z.string().max(100) }),
  },
  responses: {
    200: { description: 'The zip', content: { 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } } },
    ...errorResponses(400, 404, 410),
  },
})

const requestDeletion = signedInRoute(own, {
  method: 'post',
  path: '/deletion',
  tags,
  summary: `Delete your account, ${ACCOUNT_DELETION_GRACE_DAYS} days from now; signing in before then cancels it`,
  description:
    'Confirm with `password`, or with `code` from your authenticator app when two-factor sign-in is on. An account without a ' +
    'password (Google only) sends `{}` first: we e-mail a link, whose `token` then confirms (the answer says `confirmationSentTo`). ' +
    'Confirmed, every session of yours ends at once (this one too), your unfinished runs stop, and your API keys, devices, trigger ' +
    'URLs and schedules are refused (403 ACCOUNT_DELETION_PENDING) until you sign in, which cancels the deletion. On `eraseAfter` ' +
    'the account is erased and its subscriptions cancelled. Refused (409) while you alone own a team workspace others work in, or ' +
    'are the last admin. There is no DELETE: signing in is how a deletion is cancelled.',
  request: { body: jsonBody(accountDeletionSchema) },
  responses: {
    202: {
      description: 'Scheduled (eraseAfter), or a confirmation link sent (confirmationSentTo)',
      content: {
        'application/json': {
          schema: z.object({ data: z.object({ eraseAfter: z.string().nullable(), confirmationSentTo: z.string().optional() }) }),
        },
      },
    },
    ...errorResponses(400, 409, 429),
  },
})

export function createAccountDataApi(deps: { exports: DataExportService; deletion: AccountDeletionService }) {
  return createRouter()
    .openapi(requestExport, async (c) => {
      const created = await deps.exports.request(c.get('member'))
      return c.json({ data: { id: created.id, status: created.status } }, 202)
    })
    .openapi(latestExport, async (c) => {
      const latest = await deps.exports.latest(c.get('member').id)
      return c.json({ data: latest ? toExportDto(latest) : null }, 200)
    })
    .openapi(downloadExport, async (c) => {
      const { expires, token } = c.req.valid('query')
      const found = await deps.exports.download(c.get('member'), c.req.valid('param').id, expires, token)
      return c.body(found.open(), 200, {
        ...attachmentHeaders(found.name),
        'Content-Type': 'application/zip',
        'Content-Length': String(found.size),
      })
    })
    .openapi(requestDeletion, async (c) => {
      const user = c.get('member')
      const outcome = await deps.deletion.request(user, c.req.valid('json'), c.get('credential'))
      if (outcome.confirmation === 'email') return c.json({ data: { eraseAfter: null, confirmationSentTo: outcome.sentTo } }, 202)
      // Every session ended, this one too: a browser forgets its cookie.
      c.header('Set-Cookie', `${SESSION_COOKIE_NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`, { append: true })
      return c.json({ data: { eraseAfter: outcome.eraseAfter.toISOString() } }, 202)
    })
}
