/**
 * Every discriminated field (an enum, a constant, a step's `type`, a form's `intent`) named like a
 * member of Object.prototype must be refused as an unknown value, never reach a lookup table as a
 * key it inherits (issue 19: `{"type":"constructor"}` answered 500). Called through the API for
 * every enum or constant field of every request body and query in the OpenAPI document (and the
 * step schema inside automations), and through every page action for the fields forms send.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { action as adminBlogAction } from '#app/routes/admin-blog.tsx'
import { action as adminInquiriesAction } from '#app/routes/admin-inquiries.tsx'
import { action as adminSettingsAction } from '#app/routes/admin-settings.tsx'
import { action as adminSubscriptionsAction } from '#app/routes/admin-subscriptions.tsx'
import { action as adminTemplatesAction } from '#app/routes/admin-templates.tsx'
import { action as adminUsersAction } from '#app/routes/admin-users.tsx'
import { action as authAction } from '#app/routes/auth.tsx'
import { action as builderAction } from '#app/routes/automation-builder.tsx'
import { action as billingAction } from '#app/routes/billing.tsx'
import { action as billingCheckoutAction } from '#app/routes/billing-checkout.tsx'
import { action as dashboardAction } from '#app/routes/dashboard.tsx'
import { action as preferencesAction } from '#app/routes/preferences.tsx'
import { action as runDetailAction } from '#app/routes/run-detail.tsx'
import { action as servicesAction } from '#app/routes/services.tsx'
import { action as settingsAction } from '#app/routes/settings.tsx'
import { action as templatesAction } from '#app/routes/templates.tsx'
import type { PageContext } from '#server/http/page-context.ts'
import { operationsOf, type JsonSchema, type OpenApiDocument } from '#server/testing/arbitrary-requests.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

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

type PageAction = (args: { request: Request; params: Record<string, string>; context: PageContext }) => unknown

describe('prototype names in page forms', async () => {
  const { user } = await t.services.sessions.resolve({ kind: 'bearer', token: admin.token })
  const runId = ((await run.json()) as { data: { id: string } }).data.id
  const pages: [string, PageAction, Record<string, string>][] = [
    ['/admin', adminUsersAction as unknown as PageAction, {}],
    ['/admin/blog', adminBlogAction as unknown as PageAction, {}],
    ['/admin/inquiries', adminInquiriesAction as unknown as PageAction, {}],
    ['/admin/settings', adminSettingsAction as unknown as PageAction, {}],
    ['/admin/subscriptions', adminSubscriptionsAction as unknown as PageAction, {}],
    ['/admin/templates', adminTemplatesAction as unknown as PageAction, {}],
    ['/auth', authAction as unknown as PageAction, {}],
    ['/dashboard/automations/new', builderAction as unknown as PageAction, { id: 'new' }],
    ['/billing', billingAction as unknown as PageAction, {}],
    ['/billing/checkout', billingCheckoutAction as unknown as PageAction, {}],
    ['/dashboard', dashboardAction as unknown as PageAction, {}],
    ['/preferences', preferencesAction as unknown as PageAction, {}],
    [`/dashboard/runs/${runId}`, runDetailAction as unknown as PageAction, { id: runId }],
    ['/services', servicesAction as unknown as PageAction, {}],
    ['/settings', settingsAction as unknown as PageAction, {}],
    ['/dashboard/templates', templatesAction as unknown as PageAction, {}],
  ]
  const FIELDS = [
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
  ]

  it.each(pages)('%s', async (path, action, params) => {
    const failures: string[] = []
    for (const name of PROTOTYPE_NAMES) {
      const form = new URLSearchParams({ name: 'Proto', email: 'proto@example.com', message: 'Hello', title: 'Proto', password: 'x' })
      for (const field of FIELDS) form.set(field, name)
      form.set('steps', JSON.stringify([{ type: name }]))
      const request = new Request(`http://localhost:3000${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': t.freshIp() },
        body: form,
      })
      const reported: unknown[] = []
      const context: PageContext = {
        services: t.services,
        user,
        credential: { kind: 'bearer', token: admin.token },
        cspNonce: 'nonce',
        clientIp: '203.0.113.99',
        publicUrl: 'http://localhost:3000',
        reportError: (error) => reported.push(error),
      }
      try {
        const result = await action({ request, params, context })
        const status = result instanceof Response ? result.status : ((result as { init?: { status?: number } } | null)?.init?.status ?? 200)
        if (status >= 500) failures.push(`${name}: ${status}`)
      } catch (error) {
        // A thrown Response or data() is an answer; anything else would be a 500 page.
        const status = error instanceof Response ? error.status : (error as { init?: { status?: number } } | null)?.init?.status
        if (status === undefined) failures.push(`${name}: threw ${error instanceof Error ? error.message : String(error)}`)
        else if (status >= 500) failures.push(`${name}: ${status}`)
      }
      if (reported.length) failures.push(`${name}: reported ${String(reported[0])}`)
    }
    expect(failures).toEqual([])
  })
})
