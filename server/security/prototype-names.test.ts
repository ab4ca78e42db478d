/**
 * Every discriminated field (an enum, a constant, a step's `type`, a form's `intent`) named like a
 * member of Object.prototype must be refused as an unknown value, never reach a lookup table as a
 * key it inherits (issue 19: `{"type":"constructor"}` answered 500). Called through the API for
 * every enum or constant field of every request body and query in the OpenAPI document (and the
 * step schema inside automations), and through every page action for the fields forms send.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { PageContext } from '#server/http/page-context.ts'
import { operationsOf, type JsonSchema, type OpenApiDocument } from '#server/testing/arbitrary-requests.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { pageOutcome, pageRoutes, type PageFunction } from '#server/testing/page-modules.ts'

const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'prototype',
  '__defineGetter__',
]

const t: TestApp = await createTestApp()
afterAll(async () => {
  await t.close()
})
const admin = await t.signUp({ role: 'admin' })
const document = (await (await t.request('/api/openapi.json')).json()) as OpenApiDocument
const stepsSchema = (await (await t.request('/api/automations/steps.schema.json')).json()) as JsonSchema
const automation = (
  (await (
    await t.request('/api/automations', {
      body: { name: 'Proto', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      token: admin.token,
    })
  ).json()) as {
    data: { id: string }
  }
).data
const run = await t.request(`/api/automations/${automation.id}/runs`, { body: { where: 'client' }, token: admin.token })
const runId = ((await run.json()) as { data: { id: string } }).data.id

const resolve = (schema: JsonSchema): JsonSchema =>
  schema.$ref ? resolve(document.components?.schemas?.[schema.$ref.split('/').at(-1) ?? ''] ?? {}) : schema

/** A plausible value for a schema: enough for the rest of a body to pass, so the spoiled field is what is judged. */
function sample(raw: JsonSchema, name = ''): unknown {
  const schema = resolve(raw)
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return schema.enum[0]
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0]
  if (branch) return sample(branch, name)
  const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== 'null') : schema.type
  if (type === 'object' || schema.properties) {
    // The required fields only: optional ones (a schedule, a filter) could fail on their own.
    const required = new Set(schema.required ?? [])
    return Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(([key]) => required.has(key) || key === 'steps')
        .map(([key, value]) => [key, sample(value, key)]),
    )
  }
  if (type === 'array') return name === 'steps' ? [{ type: 'navigate', url: 'https://example.com/' }] : [sample(schema.items ?? {})]
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 1, 1)
  if (type === 'boolean') return false
  if (schema.format === 'email' || name === 'email') return 'proto@example.com'
  if (schema.format === 'uri' || name.toLowerCase().includes('url')) return 'https://example.com/'
  return name === 'newPassword' || name === 'password' ? 'a-long-enough-password' : 'Proto value'
}

/** Every path to an enum or constant field inside a schema ('steps.0.type', 'role'). */
function discriminatedPaths(raw: JsonSchema, prefix: string[] = []): string[][] {
  const schema = resolve(raw)
  if (schema.const !== undefined || schema.enum?.length) return [prefix]
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]
  const nested = branches.flatMap((branch) => discriminatedPaths(branch, prefix))
  const fields = Object.entries(schema.properties ?? {}).flatMap(([key, value]) =>
    key === 'steps' ? discriminatedPaths(stepsSchema.items ?? {}, [...prefix, key, '0']) : discriminatedPaths(value, [...prefix, key]),
  )
  const items = schema.items ? discriminatedPaths(schema.items, [...prefix, '0']) : []
  return [...new Set([...nested, ...fields, ...items].map((path) => path.join('.')))].map((path) => (path ? path.split('.') : []))
}

function withValue(body: unknown, path: string[], value: string): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>
  let target: Record<string, unknown> = copy
  path.slice(0, -1).forEach((key) => {
    target[key] ??= /^\d+$/.test(path[path.indexOf(key) + 1] ?? '') ? [{}] : {}
    target = target[key] as Record<string, unknown>
  })
  target[path.at(-1) ?? ''] = value
  return copy
}

const concrete = (path: string) =>
  path.replace('{id}', path.startsWith('/api/runs') ? automation.id : automation.id).replace(/\{[^}]+\}/g, 'proto')

describe('prototype names in the API', () => {
  const operations = operationsOf(document)

  it('finds the discriminated fields, the step type among them', () => {
    const paths = operations.flatMap((operation) => (operation.bodySchema ? discriminatedPaths(operation.bodySchema) : []))
    expect(paths.map((path) => path.join('.'))).toContain('steps.0.type')
  })

  it.each(operations.filter((operation) => operation.bodySchema).map((operation) => [operation.key, operation] as const))(
    '%s: every enum and constant in the body',
    async (_key, operation) => {
      const body = sample(operation.bodySchema ?? {})
      const failures: string[] = []
      for (const path of discriminatedPaths(operation.bodySchema ?? {})) {
        for (const name of PROTOTYPE_NAMES) {
          const response = await t.request(concrete(operation.path), {
            method: operation.method,
            body: withValue(body, path, name),
            token: admin.token,
            ip: t.freshIp(),
          })
          if (response.status >= 500) failures.push(`${path.join('.')}=${name}: ${response.status} ${await response.text()}`)
          else await response.body?.cancel()
        }
      }
      expect(failures).toEqual([])
    },
  )

  it.each(operations.filter((operation) => operation.queryParams.length).map((operation) => [operation.key, operation] as const))(
    '%s: every query parameter',
    async (_key, operation) => {
      const failures: string[] = []
      for (const { name: param } of operation.queryParams) {
        for (const name of PROTOTYPE_NAMES) {
          const response = await t.request(`${concrete(operation.path)}?${param}=${name}`, { token: admin.token, ip: t.freshIp() })
          if (response.status >= 500) failures.push(`${param}=${name}: ${response.status}`)
          if (operation.path.endsWith('/events') && response.status === 200) await response.body?.cancel()
          else await response.text()
        }
      }
      expect(failures).toEqual([])
    },
  )
})

/**
 * What the app's own source names (tests left out): the `intent` values its forms and actions
 * know, and the query parameters its loaders read. Read from the files, so a new intent or
 * parameter is fuzzed without being listed here.
 */
const sources = Object.entries(
  import.meta.glob<string>(['/app/**/*.{ts,tsx}', '/common/**/*.ts', '!**/*.test.{ts,tsx}'], {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
).map(([, text]) => text)
const matches = (pattern: RegExp) => [...new Set(sources.flatMap((text) => [...text.matchAll(pattern)].map((match) => match[1] ?? '')))]
const KNOWN_INTENTS = [
  ...new Set([
    ...matches(/intent(?:Name)?\s*===\s*'([a-z0-9-]+)'/g),
    ...matches(/name="intent"\s+value="([a-z0-9-]+)"/g),
    ...matches(/\bintent:\s*'([a-z0-9-]+)'/g),
    ...sources.flatMap((text) =>
      [...text.matchAll(/_INTENTS\s*=\s*\[([^\]]*)\]/g)].flatMap((list) =>
        [...(list[1] ?? '').matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1] ?? ''),
      ),
    ),
  ]),
].sort()
const QUERY_NAMES = [
  ...new Set([
    ...matches(/(?:params|searchParams)\.get(?:All)?\('([A-Za-z]+)'\)/g),
    // What the sign-in page and the social card read through helpers.
    'returnTo',
    'title',
    ...operationsOf(document).flatMap((operation) => operation.queryParams.map((param) => param.name)),
  ]),
].sort()

/** A prototype name leaking out of a lookup shows as the text of a function or an object. */
const LEAKED = /native code|\[object /

describe('prototype names in page forms', async () => {
  const { user } = await t.services.sessions.resolve({ kind: 'bearer', token: admin.token })
  // Every page with an action, posted to by an admin (whom no page refuses) with an address its page can read.
  const params = (path: string): Record<string, string> =>
    path === '/dashboard/automations/:id' ? { id: 'new' } : path === '/dashboard/runs/:id' ? { id: runId } : {}
  const context = (): PageContext => ({
    services: t.services,
    user,
    credential: { kind: 'bearer', token: admin.token },
    cspNonce: 'nonce',
    clientIp: t.freshIp(),
    publicUrl: 'http://localhost:3000',
    reportError: (error) => {
      throw error
    },
  })
  const pages: [string, PageFunction, Record<string, string>][] = []
  for (const page of pageRoutes()) {
    const { action } = await page.load()
    // Signing out reads no field, and would end the admin's session the other pages use.
    if (action && page.path !== '/sign-out') pages.push([page.path, action, params(page.path)])
  }
  // The choice fields forms send: the ones pages read by hand, and every enum field of the API's
  // bodies (the pages parse with the same schemas).
  const FIELDS = [
    ...new Set([
      'intent',
      'theme',
      'consent',
      'projectType',
      'role',
      'plan',
      'status',
      'category',
      'field',
      'processed',
      'where',
      'card',
      'scopes',
      ...operationsOf(document).flatMap((operation) =>
        operation.bodySchema
          ? discriminatedPaths(operation.bodySchema).map((path) => path.filter((part) => !/^\d+$/.test(part)).at(-1) ?? '')
          : [],
      ),
    ]),
  ].filter(Boolean)

  it('posts to every page action, with every intent the app knows and every choice field', () => {
    expect(pages.map(([path]) => path)).toEqual(
      expect.arrayContaining(['/admin', '/auth', '/workspace', '/invitations/accept', '/contact']),
    )
    expect(KNOWN_INTENTS).toEqual(
      expect.arrayContaining(['change-password', 'create-api-key', 'add-secret', 'issue-trigger', 'rename-device']),
    )
    expect(FIELDS).toEqual(expect.arrayContaining(['kind', 'events', 'type', 'trigger', 'tone']))
    expect(QUERY_NAMES).toEqual(expect.arrayContaining(['tab', 'category', 'status', 'returnTo', 'title']))
  })

  /** Posts a form with these fields (the rest plausible) and returns what went wrong, if anything. */
  async function failureOf(path: string, action: PageFunction, params: Record<string, string>, fields: Record<string, string>) {
    const form = new URLSearchParams({ name: 'Proto', email: 'proto@example.com', message: 'Hello', title: 'Proto', password: 'x' })
    for (const [field, value] of Object.entries(fields)) form.set(field, value)
    const request = new Request(`http://localhost:3000${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    })
    const what = `intent=${fields.intent}`
    const outcome = await pageOutcome(() => action({ request, params, context: context() }))
    // A thrown Response or data() is an answer; anything else would be a 500 page.
    if (outcome.error) return `${what}: threw ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`
    if (outcome.status >= 500) return `${what}: ${outcome.status}`
    if (outcome.location && LEAKED.test(outcome.location)) return `${what}: redirected to ${outcome.location}`
    return null
  }

  it.each(pages)('%s', async (path, action, params) => {
    const failures: string[] = []
    // The intent itself named like a member of Object.prototype...
    for (const name of PROTOTYPE_NAMES) {
      const fields = Object.fromEntries(FIELDS.map((field) => [field, name]))
      const failure = await failureOf(path, action, params, { ...fields, steps: JSON.stringify([{ type: name }]) })
      if (failure) failures.push(failure)
    }
    // ...and every intent the app knows, with its choice fields so named (a function's name, an object's, a method's).
    for (const intent of KNOWN_INTENTS) {
      for (const name of ['constructor', '__proto__', 'toString']) {
        const fields = Object.fromEntries(FIELDS.map((field) => [field, name]))
        const failure = await failureOf(path, action, params, { ...fields, steps: JSON.stringify([{ type: name }]), intent })
        if (failure) failures.push(`${failure} (fields ${name})`)
      }
    }
    expect(failures).toEqual([])
  })
})

describe('prototype names in page addresses', async () => {
  const { user } = await t.services.sessions.resolve({ kind: 'bearer', token: admin.token })
  const params = (path: string): Record<string, string> =>
    path === '/dashboard/automations/:id' ? { id: automation.id } : path === '/dashboard/runs/:id' ? { id: runId } : {}
  const loaders: [string, PageFunction, Record<string, string>][] = []
  for (const page of pageRoutes()) {
    const { loader } = await page.load()
    if (loader && page.path !== '/sign-out') loaders.push([page.path, loader, params(page.path)])
  }

  it('reads every page with a loader', () => {
    expect(loaders.map(([path]) => path)).toEqual(expect.arrayContaining(['/admin', '/dashboard', '/dashboard/templates', '/og.png']))
  })

  it.each(loaders)('%s', async (path, loader, params) => {
    const failures: string[] = []
    for (const name of PROTOTYPE_NAMES) {
      const query = new URLSearchParams(QUERY_NAMES.map((param) => [param, name]))
      const request = new Request(`http://localhost:3000${path.replace(/:\w+/g, (param) => params[param.slice(1)] ?? 'x')}?${query}`)
      const context: PageContext = {
        services: t.services,
        user,
        credential: { kind: 'bearer', token: admin.token },
        cspNonce: 'nonce',
        clientIp: t.freshIp(),
        publicUrl: 'http://localhost:3000',
        reportError: (error) => {
          throw error
        },
      }
      const outcome = await pageOutcome(() => loader({ request, params, context }))
      if (outcome.error) failures.push(`${name}: threw ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`)
      else if (outcome.status >= 500) failures.push(`${name}: ${outcome.status}`)
      else if (outcome.location && LEAKED.test(outcome.location)) failures.push(`${name}: redirected to ${outcome.location}`)
    }
    expect(failures).toEqual([])
  })
})
