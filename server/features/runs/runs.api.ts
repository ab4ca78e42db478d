// The runs API: /api/runs (history, live events, a run, client reports, screenshots, cancel,
// downloads, signed artifact links, Apply fix, a device's claim) and POST /api/automations/{id}/runs.
// Over 300 lines: fourteen routes, each declared (for the OpenAPI document and the authorization
// matrix) beside its handler.
import { attachmentHeaders } from '#server/http/attachment.ts'
import { z } from '@hono/zod-openapi'
import {
  CLIENT_SCREENSHOT_MAX_BYTES,
  clientScreenshotQuerySchema,
  runFinishSchema,
  runListQuerySchema,
  runProgressSchema,
  runAgainSchema,
  runResumeSchema,
  runStartSchema,
  type RunTrigger,
} from '#common/automations.ts'
import { ValidationError } from '#common/errors.ts'
import { MAX_RUN_STORED_BYTES } from '#common/run-steps.ts'
import { dataSourceOf } from '#server/tables/data-sources.ts'
import type { SessionService, SessionUser } from '#server/features/auth/session.service.ts'
import type { EventBus } from '#server/features/events/event-bus.ts'
import { EXTRACTED_JSON, type ArtifactLinks } from '#server/artifact-links.ts'
import { admin, callerOf, deviceItself, member, publicRoute, signedInRoute, type SignedInAccess } from '#server/http/access.ts'
import { liveStream } from '#server/http/live-stream.ts'
import { createRouter, errorResponses, jsonBody, ownedResourceParams, pageResponse } from '#server/http/openapi.ts'
import { extractedAsCsv, rowOutcomesAsCsv } from '#server/tables/extracted-csv.ts'
import type { RepairApplier } from './apply-repair.ts'
import { screenshotType, type RunFiles } from './run-files.ts'
import { runDtoSchema, toRunDto, type RunDto } from './run.dto.ts'
import type { Run, RunService } from './run.service.ts'

const tags = ['Runs']
const idParam = ownedResourceParams
const access = member('automations', 'viewer')
/** Starting, reporting on, cancelling and fixing runs change things: members and above. */
const changes = member('automations', 'member')
/** Every member's runs (scope=all) are for admins, with a session or a key with admin:read. */
const listAccess: SignedInAccess = { ...access, whenQuery: { name: 'scope', value: 'all', rule: admin('admin:read') } }
const one = { 'application/json': { schema: z.object({ data: runDtoSchema }) } }

const list = signedInRoute(listAccess, {
  method: 'get',
  path: '/',
  tags,
  summary: "The caller's runs, newest first; an admin passes scope=all (and userId) for every member's",
  request: {
    query: runListQuerySchema.extend({
      scope: z.enum(['mine', 'all'], { error: 'scope must be mine or all' }).default('mine'),
      userId: z.string().max(100).optional(),
    }),
  },
  responses: {
    200: pageResponse(runDtoSchema, 'A page of runs'),
    ...errorResponses(400),
  },
})

const events = signedInRoute(access, {
  method: 'get',
  path: '/events',
  tags,
  summary: "Server-sent events: `run` with { id, status, automationId } whenever one of the caller's runs changes",
  responses: {
    200: { description: 'An event stream (text/event-stream)', content: { 'text/event-stream': { schema: z.string() } } },
  },
})

const get = signedInRoute(access, {
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One run with its log, extracted data and screenshots',
  request: { params: idParam },
  responses: { 200: { description: 'The run', content: one }, ...errorResponses(400, 404) },
})

const progress = signedInRoute(changes, {
  method: 'post',
  path: '/{id}/progress',
  tags,
  summary: 'A client (extension, desktop app) reports progress on a run it executes: actions so far, log lines, extracted rows',
  request: { params: idParam, body: jsonBody(runProgressSchema) },
  responses: { 200: { description: 'The run', content: one }, ...errorResponses(400, 404) },
})

const finish = signedInRoute(changes, {
  method: 'post',
  path: '/{id}/finish',
  tags,
  summary: 'A client reports how a run it executed ended (succeeded, failed with an error, or cancelled)',
  request: { params: idParam, body: jsonBody(runFinishSchema) },
  responses: { 200: { description: 'The run', content: one }, ...errorResponses(400, 404) },
})

const addScreenshot = signedInRoute(changes, {
  method: 'post',
  path: '/{id}/screenshots',
  tags,
  summary: 'A client reports a screenshot it took during a run it executes (PNG), or a step’s picture for the timeline (JPEG)',
  description:
    `The body is the image itself (at most ${CLIENT_SCREENSHOT_MAX_BYTES / 1024 / 1024} MB: 413 over it). Content-Type: image/png is a screenshot ` +
    'the run lists (`step` is the step it was taken after, `name` an optional caption); image/jpeg is the picture after a step ' +
    '(`shot` numbers it: a `steps` entry of a progress report names it as after-<shot>.jpg). Both count in the run’s files ' +
    `(at most ${MAX_RUN_STORED_BYTES / 1024 / 1024} MB). Only the member who started the client run, while it runs.`,
  request: {
    params: idParam,
    query: clientScreenshotQuerySchema,
    body: {
      content: {
        'image/png': { schema: z.string().openapi({ format: 'binary' }) },
        'image/jpeg': { schema: z.string().openapi({ format: 'binary' }) },
      },
      required: true,
    },
  },
  responses: {
    201: {
      description: 'The screenshot as the run lists it',
      content: { 'application/json': { schema: z.object({ data: z.object({ name: z.string(), file: z.string(), step: z.number() }) }) } },
    },
    ...errorResponses(400, 404, 413),
  },
})

/** Whether the run lists the screenshot: among its screenshots, or as a step's picture in its timeline. */
const listsScreenshot = (run: Pick<Run, 'screenshots' | 'timeline'>, file: string) =>
  run.screenshots.some((shot) => shot.file === file) || run.timeline.some((step) => step.screenshot === file)

/** The bytes of a PNG file start with this signature, a JPEG's with this one. */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff]
const NOT_AN_IMAGE =
  'The screenshot must be a PNG image (Content-Type: image/png), or a step’s picture a JPEG image (Content-Type: image/jpeg), sent as the body.'

/** The request's image body and its kind, or a 400 naming what is wrong with it. */
function imageBody(type: string | undefined, body: Uint8Array | undefined): { kind: 'png' | 'jpeg'; bytes: Uint8Array } {
  const kind = /^image\/png\s*(;|$)/i.test(type ?? '') ? 'png' : /^image\/jpeg\s*(;|$)/i.test(type ?? '') ? 'jpeg' : null
  const signature = kind === 'png' ? PNG_SIGNATURE : JPEG_SIGNATURE
  if (!kind || !body || body.byteLength <= signature.length || signature.some((byte, index) => body[index] !== byte)) {
    throw new ValidationError(NOT_AN_IMAGE)
  }
  return { kind, bytes: body }
}

const cancel = signedInRoute(changes, {
  method: 'post',
  path: '/{id}/cancel',
  tags,
  summary: 'Cancel a run that has not finished; a queued cloud run gets its credit back',
  request: { params: idParam },
  responses: { 200: { description: 'The run', content: one }, ...errorResponses(400, 404) },
})

const downloadRoute = (format: 'csv' | 'json') =>
  signedInRoute(access, {
    method: 'get',
    path: `/{id}/extracted.${format}`,
    tags,
    summary: `The data a run extracted, as a ${format.toUpperCase()} file`,
    request: { params: idParam },
    responses: {
      200: {
        description: 'The file',
        content:
          format === 'csv'
            ? { 'text/csv': { schema: z.string() } }
            : { 'application/json': { schema: z.array(z.record(z.string(), z.string().nullable())) } },
      },
      ...errorResponses(400, 404),
    },
  })

const resume = signedInRoute(changes, {
  method: 'post',
  path: '/{id}/resume',
  tags,
  summary:
    'Continue a failed or cancelled run as a new cloud run: the same steps, inputs and data rows, from the step it stopped at (or fromStep), on the page it stopped on; rows it finished are not run or paid for again. The new run has resumedFrom.',
  request: { params: idParam, body: jsonBody(runResumeSchema) },
  responses: { 201: { description: 'The new run', content: one }, ...errorResponses(400, 403, 404, 409) },
})

const runAgain = signedInRoute(changes, {
  method: 'post',
  path: '/{id}/rerun',
  tags,
  summary:
    "Run a finished run's automation again as a new run, with the same inputs and data rows: in the cloud (where=cloud, credits as any cloud run), or on the member's own local runner it ran on while it is connected (where=device, no credits). The automation's current steps run. Refused with 400 while the run has not finished or when its automation was deleted, and with 409 PLAN_LIMIT or INSUFFICIENT_CREDITS as a start is.",
  request: { params: idParam, body: jsonBody(runAgainSchema) },
  responses: { 201: { description: 'The new run', content: one }, ...errorResponses(400, 403, 404, 409) },
})

const keptFile = signedInRoute(access, {
  method: 'get',
  path: '/{id}/files/{file}',
  tags,
  summary: 'A file a run kept (a download, a saved table): always as an attachment, never shown in the browser',
  request: { params: idParam.extend({ file: z.string().max(100) }) },
  responses: {
    200: { description: 'The file', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
    ...errorResponses(400, 404),
  },
})

const trace = signedInRoute(access, {
  method: 'get',
  path: '/{id}/trace',
  tags,
  summary:
    "A cloud run's Playwright trace (ZIP, vault values masked; docs/decisions/060): open it in the trace viewer at /trace-viewer/ or with `npx playwright show-trace`",
  request: { params: idParam },
  responses: {
    200: { description: 'The trace', content: { 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } } },
    ...errorResponses(400, 404),
  },
})

const rowsCsv = signedInRoute(access, {
  method: 'get',
  path: '/{id}/rows.csv',
  tags,
  summary: "A run's data rows with each row's outcome (row, status, error, then the row's columns), as a CSV file",
  request: { params: idParam },
  responses: { 200: { description: 'The file', content: { 'text/csv': { schema: z.string() } } }, ...errorResponses(400, 404) },
})

const screenshot = signedInRoute(access, {
  method: 'get',
  path: '/{id}/screenshots/{file}',
  tags,
  summary: 'A screenshot a cloud run took (PNG)',
  request: { params: idParam.extend({ file: z.string().max(100) }) },
  responses: { 200: { description: 'The image', content: { 'image/png': { schema: z.string() } } }, ...errorResponses(400, 404) },
})

const signedArtifact = publicRoute({
  method: 'get',
  path: '/{id}/artifacts/{file}',
  tags,
  summary: 'A screenshot (PNG) or the extracted rows (extracted.json) of a run, by a signed link that expires',
  description:
    'The links in webhook payloads (docs/decisions/026): no session; `signature` covers the run, the file and `expires` ' +
    '(Unix seconds). A wrong, changed or expired link answers 404 like a missing file.',
  request: {
    params: idParam.extend({ file: z.string().max(100) }),
    query: z.object({ expires: z.coerce.number().int().optional(), signature: z.string().max(100).optional() }),
  },
  responses: {
    200: {
      description: 'The file',
      content: {
        'image/png': { schema: z.string() },
        'application/json': { schema: z.array(z.record(z.string(), z.string().nullable())) },
      },
    },
    ...errorResponses(400, 404),
  },
})

const applyRepair = signedInRoute(changes, {
  method: 'post',
  path: '/{id}/repairs/{step}/apply',
  tags,
  summary:
    'Apply fix: write the repair this run found for a step into its automation, as a new version (the old ways of finding the element stay as fallbacks). 409 when the step changed since the run.',
  request: {
    params: idParam.extend({
      step: z.coerce
        .number({ error: 'step must be a step number' })
        .int('step must be a step number')
        .min(1, 'step must be a step number')
        .max(10_000),
    }),
  },
  responses: {
    200: {
      description: 'The automation’s new version',
      content: {
        'application/json': {
          schema: z.object({ data: z.object({ automationId: z.string(), version: z.number().int(), step: z.number().int() }) }),
        },
      },
    },
    ...errorResponses(400, 404, 409),
  },
})

const claim = signedInRoute(deviceItself(), {
  method: 'post',
  path: '/claim',
  tags,
  summary:
    'A local runner (device token only) takes the oldest run queued for it — a scheduled run of an automation set to run on it — which is running from then on; it reports on it like any client run. data is null when none waits.',
  responses: {
    200: {
      description: 'The run it now runs, or null',
      content: { 'application/json': { schema: z.object({ data: runDtoSchema.nullable() }) } },
    },
  },
})

const start = signedInRoute(changes, {
  method: 'post',
  path: '/{id}/runs',
  tags,
  summary:
    'Start a run. where=cloud queues it for our worker (1 credit); where=client means the extension or desktop app runs it and reports progress (no credits); deviceId queues it for one of your own connected local runners, which takes it up (no credits). inputs gives a value for each {{input.name}} the steps use (all of them, nothing else); values are text, filled in one pass with everything else, so a value is never read as a placeholder. A cloud run started with an API key records the trigger api. A client run whose steps type vault secrets starts only on a connected device its member allowed vault values (400 saying what to do otherwise; docs/decisions/048). Refused with 409 PLAN_LIMIT or INSUFFICIENT_CREDITS before anything starts, with 403 when the steps use a vault secret kept for a higher role than the caller’s (docs/decisions/039), and with 403 EMAIL_NOT_VERIFIED for a cloud run of an account whose e-mail address is not verified beyond the Free plan runs a month.',
  request: { params: idParam, body: jsonBody(runStartSchema) },
  responses: {
    201: { description: 'The run', content: one },
    ...errorResponses(400, 403, 404, 409),
  },
})

/** Runs as the API answers them, each with its place in the cloud queue while it waits there. */
async function runDtos(runs: Pick<RunService, 'queuePositions'>, items: Run[]): Promise<RunDto[]> {
  const positions = await runs.queuePositions(items)
  return items.map((run) => toRunDto(run, positions[run.id] ?? null))
}
async function runDto(runs: Pick<RunService, 'queuePositions'>, run: Run): Promise<RunDto> {
  const positions = await runs.queuePositions([run])
  return toRunDto(run, positions[run.id] ?? null)
}

type SignedInWith = SessionUser['signedInWith']
/** The client a device is; a browser session's client run is the extension's (docs/decisions/031). */
const clientOf = (via: SignedInWith) => (via.kind === 'device' && via.deviceKind === 'runner' ? 'desktop' : 'extension')
/** What started a run, by the credential that asked: a device says which client it is; a key is "the API" (docs/decisions/027). */
const triggerOf = (via: SignedInWith): RunTrigger => (via.kind === 'device' ? clientOf(via) : via.kind === 'api-key' ? 'api' : 'manual')

/** POST /automations/{id}/runs: mounted under /automations, beside the automations' own routes. */
export function createRunStartApi(runs: RunService) {
  return createRouter().openapi(start, async (c) => {
    const body = c.req.valid('json')
    const user = c.get('member')
    const via = user.signedInWith
    const trigger = body.trigger ?? (body.where === 'client' ? clientOf(via) : triggerOf(via))
    const run = await runs.start(c.req.valid('param').id, callerOf(user), {
      runner: body.deviceId ? 'client' : body.where,
      trigger: body.deviceId && !body.trigger ? (via.kind === 'api-key' ? 'api' : 'manual') : trigger,
      device: body.deviceId ? { id: body.deviceId } : undefined,
      startedOn: via.kind === 'device' && body.where === 'client' && !body.deviceId ? via.deviceId : undefined,
      inputs: body.inputs,
      data: dataSourceOf(body),
    })
    return c.json({ data: await runDto(runs, run) }, 201)
  })
}

const downloadHeaders = (runId: string, format: string, type: string) => ({
  'Content-Type': type,
  'Content-Disposition': `attachment; filename="run-${runId}.${format}"`,
  'Cache-Control': 'private, no-store',
})

export function createRunsApi(deps: {
  runs: RunService
  repairs: RepairApplier
  files: RunFiles
  events: EventBus
  sessions: SessionService
  links: ArtifactLinks
}) {
  const { runs, repairs, files, events: bus, sessions, links } = deps
  return createRouter()
    .openapi(list, async (c) => {
      const user = c.get('member')
      const { scope, userId, ...query } = c.req.valid('query')
      const page = await runs.list(scope === 'all' ? { ...query, userId } : { ...query, workspaceId: callerOf(user).workspace.id })
      return c.json({ data: await runDtos(runs, page.items), total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(events, (c) => {
      const user = c.get('member')
      return liveStream<{ id: string; status: string; automationId: string | null }>(c, {
        sessions,
        rule: access,
        event: 'run',
        subscribe: (send) =>
          bus.subscribe('run', (event) => {
            if (event.workspaceId === user.workspace?.id) send({ id: event.id, status: event.status, automationId: event.automationId })
          }),
      })
    })
    .openapi(get, async (c) => {
      const user = c.get('member')
      return c.json({ data: await runDto(runs, await runs.get(c.req.valid('param').id, callerOf(user))) }, 200)
    })
    .openapi(claim, async (c) => {
      const via = c.get('member').signedInWith
      if (via.kind !== 'device') throw new Error('the route’s rule lets devices only in')
      const run = await runs.claimForDevice(via.deviceId)
      return c.json({ data: run ? toRunDto(run, null) : null }, 200)
    })
    .openapi(progress, async (c) => {
      const user = c.get('member')
      return c.json({ data: await runDto(runs, await runs.report(c.req.valid('param').id, callerOf(user), c.req.valid('json'))) }, 200)
    })
    .openapi(finish, async (c) => {
      const user = c.get('member')
      const { status, error, rowOutcomes, dataRows, ...report } = c.req.valid('json')
      return c.json(
        {
          data: await runDto(
            runs,
            await runs.report(c.req.valid('param').id, callerOf(user), report, { status, error, rowOutcomes, dataRows }),
          ),
        },
        200,
      )
    })
    .openapi(addScreenshot, async (c) => {
      const { id } = c.req.valid('param')
      const { step, name, shot } = c.req.valid('query')
      const image = imageBody(c.req.header('content-type'), c.get('body'))
      const save = (file: string) => files.saveScreenshot(id, file, image.bytes)
      const caller = callerOf(c.get('member'))
      if (image.kind === 'jpeg') {
        if (shot === undefined) throw new ValidationError('A step’s picture (image/jpeg) needs shot: its number in the run.')
        const file = await runs.addClientStepPicture(id, caller, { shot, bytes: image.bytes.byteLength }, save)
        return c.json({ data: { name: name ?? `Step ${step}`, file, step } }, 201)
      }
      return c.json({ data: await runs.addClientScreenshot(id, caller, { step, name, bytes: image.bytes.byteLength }, save) }, 201)
    })
    .openapi(cancel, async (c) => {
      const user = c.get('member')
      return c.json({ data: await runDto(runs, await runs.cancel(c.req.valid('param').id, callerOf(user))) }, 200)
    })
    .openapi(applyRepair, async (c) => {
      const { id, step } = c.req.valid('param')
      const automation = await repairs.applyRepair(id, callerOf(c.get('member')), step)
      return c.json({ data: { automationId: automation.id, version: automation.version, step } }, 200)
    })
    .openapi(downloadRoute('csv'), async (c) => {
      const run = await runs.get(c.req.valid('param').id, callerOf(c.get('member')))
      return c.body(extractedAsCsv(run.extracted), 200, downloadHeaders(run.id, 'csv', 'text/csv; charset=utf-8'))
    })
    .openapi(downloadRoute('json'), async (c) => {
      const run = await runs.get(c.req.valid('param').id, callerOf(c.get('member')))
      return c.body(JSON.stringify(run.extracted, null, 2), 200, downloadHeaders(run.id, 'json', 'application/json; charset=utf-8'))
    })
    .openapi(resume, async (c) => {
      const run = await runs.resume(c.req.valid('param').id, callerOf(c.get('member')), c.req.valid('json'))
      return c.json({ data: await runDto(runs, run) }, 201)
    })
    .openapi(runAgain, async (c) => {
      const user = c.get('member')
      const run = await runs.runAgain(c.req.valid('param').id, callerOf(user), {
        onDevice: c.req.valid('json').where === 'device',
        trigger: triggerOf(user.signedInWith),
      })
      return c.json({ data: await runDto(runs, run) }, 201)
    })
    .openapi(keptFile, async (c) => {
      const { id, file } = c.req.valid('param')
      const run = await runs.get(id, callerOf(c.get('member')))
      const listed = run.files.find((each) => each.file === file)
      if (!listed) return c.json({ message: 'No such file', code: 'NOT_FOUND' }, 404)
      const bytes = await files.readFile(run.id, listed.file)
      // Whatever a site sent, it is served as bytes to save: never rendered on our origin.
      return c.body(new Uint8Array(bytes), 200, attachmentHeaders(listed.name))
    })
    .openapi(trace, async (c) => {
      const run = await runs.get(c.req.valid('param').id, callerOf(c.get('member')))
      if (!run.trace || !('bytes' in run.trace)) return c.json({ message: 'This run has no trace', code: 'NOT_FOUND' }, 404)
      const bytes = await files.readTrace(run.id)
      return c.body(new Uint8Array(bytes), 200, { ...attachmentHeaders(`run-${run.id}-trace.zip`), 'Content-Type': 'application/zip' })
    })
    .openapi(rowsCsv, async (c) => {
      const run = await runs.get(c.req.valid('param').id, callerOf(c.get('member')))
      const outcomes = run.rowOutcomes.length
        ? run.rowOutcomes
        : run.dataRows.map((_, index) => ({ row: index + 1, status: 'not run' as const }))
      return c.body(rowOutcomesAsCsv(run.dataRows, outcomes), 200, {
        ...downloadHeaders(run.id, 'csv', 'text/csv; charset=utf-8'),
        'Content-Disposition': `attachment; filename="run-${run.id}-rows.csv"`,
      })
    })
    .openapi(screenshot, async (c) => {
      const user = c.get('member')
      const { id, file } = c.req.valid('param')
      const run = await runs.get(id, callerOf(user))
      if (!listsScreenshot(run, file)) return c.json({ message: 'No such screenshot', code: 'NOT_FOUND' }, 404)
      const image = await files.readScreenshot(run.id, file)
      return c.body(new Uint8Array(image), 200, { 'Content-Type': screenshotType(file), 'Cache-Control': 'private, max-age=86400' })
    })
    .openapi(signedArtifact, async (c) => {
      const { id, file } = c.req.valid('param')
      const { expires, signature } = c.req.valid('query')
      const missing = () => c.json({ message: 'No such file, or the link has expired', code: 'NOT_FOUND' }, 404)
      // The signature is checked before anything is read.
      if (expires === undefined || !signature || !links.verify(id, file, expires, signature)) return missing()
      const run = await runs.findForLink(id)
      if (!run) return missing()
      if (file === EXTRACTED_JSON) {
        return c.body(JSON.stringify(run.extracted), 200, {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'private, no-store',
        })
      }
      if (!listsScreenshot(run, file)) return missing()
      const image = await files.readScreenshot(run.id, file)
      return c.body(new Uint8Array(image), 200, { 'Content-Type': screenshotType(file), 'Cache-Control': 'private, max-age=3600' })
    })
}
