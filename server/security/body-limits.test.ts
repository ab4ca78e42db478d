/**
 * Every API route of the OpenAPI document and every page of the app refuses a body over its limit
 * with 413 before anything else, whether the size is declared (Content-Length) or only streamed
 * (chunked): the body limit is the app's first word on a body (server/http/body-limit.ts). The
 * production server's memory under a 400 MB post is measured in server/http/body-limit.processes.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import routes from '#app/routes.ts'
import { CLIENT_SCREENSHOT_MAX_BYTES } from '#common/automations.ts'
import { MAX_AUTOMATION_FILE_BYTES } from '#common/file-steps.ts'
import { operationsOf, type OpenApiDocument } from '#server/testing/arbitrary-requests.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

/** Over every limit: 2 MB of form or cover upload plus their framing, 1 MB of JSON. */
const TOO_LARGE = 2 * 1024 * 1024 + 128 * 1024
/** The larger limits: a client run's screenshot (a PNG body), a file kept with an automation (by the API or the builder). */
const SCREENSHOT_PATH = /^\/api\/runs\/[^/]+\/screenshots$/
const AUTOMATION_FILE_PATH = /^\/api\/automations\/[^/]+\/files\/[^/]+$/
const BUILDER_PATH = /^\/dashboard\/automations\/[^/]+$/
const tooLargeFor = (path: string) => {
  if (SCREENSHOT_PATH.test(path)) return CLIENT_SCREENSHOT_MAX_BYTES + 128 * 1024
  if (AUTOMATION_FILE_PATH.test(path) || BUILDER_PATH.test(path)) return MAX_AUTOMATION_FILE_BYTES + 128 * 1024
  return TOO_LARGE
}

const t: TestApp = await createTestApp({ pages: async (c) => c.text('the page read nothing') })
afterAll(async () => {
  await t.close()
})
const admin = await t.signUp({ role: 'admin' })
const document = (await (await t.request('/api/openapi.json')).json()) as OpenApiDocument

type RouteEntry = { path?: string; children?: RouteEntry[] }
function pagePaths(entries: RouteEntry[], prefix = ''): string[] {
  return entries.flatMap((entry) => {
    const path = entry.path === undefined ? prefix : `${prefix}/${entry.path}`.replace(/\/+/g, '/')
    const own = entry.path === undefined ? [] : [path.replace(/:\w+/g, 'x').replace('*', 'anything')]
    return [...own, ...pagePaths(entry.children ?? [], path)]
  })
}

function chunked(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0
  const chunk = new Uint8Array(64 * 1024).fill(97)
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close()
      sent += chunk.length
      controller.enqueue(chunk)
    },
  })
}

const targets = [
  ...operationsOf(document)
    .filter((operation) => operation.method !== 'GET')
    .map((operation) => ({ method: operation.method, path: operation.path.replace(/\{[^}]+\}/g, '00000000-0000-0000-0000-000000000000') })),
  ...['/', ...pagePaths(routes as RouteEntry[])].map((path) => ({ method: 'POST', path })),
]

describe('every body over its limit is refused with 413 first', () => {
  it('covers the API and the pages', () => {
    expect(targets.filter((target) => SCREENSHOT_PATH.test(target.path))).toHaveLength(1)
    expect(targets.filter((target) => AUTOMATION_FILE_PATH.test(target.path)).map((target) => target.method)).toEqual(['PUT', 'DELETE'])
    expect(targets.filter((target) => target.path.startsWith('/api/')).length).toBeGreaterThan(20)
    expect(targets.filter((target) => !target.path.startsWith('/api/')).length).toBeGreaterThan(30)
  })

  it.each(targets.map((target) => [`${target.method} ${target.path}`, target] as const))('%s', async (_name, target) => {
    const headers = {
      authorization: `Bearer ${admin.token}`,
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': t.freshIp(),
    }
    const size = tooLargeFor(target.path)
    const declared = await t.app.request(target.path, {
      method: target.method,
      headers: { ...headers, 'content-length': String(size) },
      body: new Uint8Array(size),
    })
    expect(declared.status, 'with Content-Length').toBe(413)
    const streamed = await t.app.request(target.path, {
      method: target.method,
      headers,
      body: chunked(size),
      duplex: 'half',
    } as RequestInit)
    expect(streamed.status, 'chunked').toBe(413)
  })
})
