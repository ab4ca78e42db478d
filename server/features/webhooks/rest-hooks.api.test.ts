import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_EXAMPLES } from '#common/webhook-examples.ts'
import { WEBHOOK_EVENTS } from '#common/webhooks.ts'
import { webhookEndpoints, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// REST hooks as a connector (Zapier, n8n) uses them: subscribe a URL to an event, receive the
// event's signed message, read samples, unsubscribe (docs/decisions/067).

type Member = Awaited<ReturnType<TestApp['signUp']>>
type Message = { type: string; timestamp: string; workspaceId: string; data: Record<string, unknown> }

let t: TestApp
let owner: Member
let receiver: Server
let base: string
const received: { path: string; body: string; headers: Record<string, string> }[] = []

beforeAll(async () => {
  // The receiver is on 127.0.0.1: this app lets webhooks reach loopback.
  t = await createTestApp({ privateTargets: 'loopback' })
  owner = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({
        path: request.url ?? '/',
        body: Buffer.concat(chunks).toString('utf8'),
        headers: request.headers as Record<string, string>,
      })
      response.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve))
  await t.close()
})

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return (text ? JSON.parse(text) : null) as T
}

async function keyOf(member: Member): Promise<string> {
  return (await json<{ data: { key: string } }>(await t.request('/api/keys', { token: member.token, body: { name: 'Zapier' } }), 201)).data
    .key
}

/** The shape of a message's data: its keys, and theirs, all the way down (values left out). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : []
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)]))
  return typeof value
}

describe('REST hooks', () => {
  it('subscribe, receive the signed message of the event, read it as a sample, unsubscribe', async () => {
    const key = await keyOf(owner)
    const { data: hook } = await json<{ data: { id: string; event: string; target_url: string; secret: string } }>(
      await t.request('/api/hooks', { token: key, body: { target_url: `${base}/zap`, event: 'automation.changed' } }),
      201,
    )
    expect(hook).toMatchObject({ event: 'automation.changed', target_url: `${base}/zap`, secret: expect.stringMatching(/^whsec_/) })
    // It is one of the workspace's webhook endpoints, for that one event.
    const [endpoint] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id))
    expect(endpoint).toMatchObject({ events: ['automation.changed'], description: 'REST hook: automation.changed', enabled: true })

    // Before any message: the example.
    const before = await json<{ data: Message[] }>(await t.request('/api/hooks/samples/automation.changed', { token: key }), 200)
    expect(before.data).toEqual([
      { type: 'automation.changed', timestamp: expect.any(String), workspaceId: owner.id, data: WEBHOOK_EXAMPLES['automation.changed'] },
    ])

    await json(
      await t.request('/api/automations', {
        token: key,
        body: { name: 'Weekly invoices', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      }),
      201,
    )
    await t.services.outgoingWebhooks.deliverDue()
    const delivered = received.filter((entry) => entry.path === '/zap')
    expect(delivered).toHaveLength(1)
    const message = new Webhook(hook.secret).verify(delivered[0]?.body ?? '', delivered[0]?.headers ?? {}) as Message
    expect(message).toMatchObject({ type: 'automation.changed', data: { change: 'created', automation: { name: 'Weekly invoices' } } })
    // The example has the real message's shape.
    expect(shapeOf(WEBHOOK_EXAMPLES['automation.changed'])).toEqual(shapeOf(message.data))

    // Once sent, the samples are the workspace's own messages.
    const after = await json<{ data: Message[] }>(await t.request('/api/hooks/samples/automation.changed', { token: key }), 200)
    expect(after.data).toEqual([message])

    expect((await t.request(`/api/hooks/${hook.id}`, { method: 'DELETE', token: key })).status).toBe(204)
    expect(await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id))).toEqual([])
    await json(
      await t.request('/api/automations', {
        token: key,
        body: { name: 'After', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      }),
      201,
    )
    await t.services.outgoingWebhooks.deliverDue()
    expect(received.filter((entry) => entry.path === '/zap')).toHaveLength(1)
  })

  it("a finished run's message has the example's shape", async () => {
    const key = await keyOf(owner)
    const { data: hook } = await json<{ data: { id: string; secret: string } }>(
      await t.request('/api/hooks', { token: key, body: { target_url: `${base}/runs`, event: 'run.succeeded' } }),
      201,
    )
    const automation = await json<{ data: { id: string } }>(
      await t.request('/api/automations', {
        token: key,
        body: { name: 'Prices', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      }),
      201,
    )
    const run = await json<{ data: { id: string } }>(
      await t.request(`/api/automations/${automation.data.id}/runs`, { token: owner.token, body: { where: 'client' } }),
      201,
    )
    await json(await t.request(`/api/runs/${run.data.id}/progress`, { token: owner.token, body: { extracted: [{ price: '$9' }] } }), 200)
    await json(
      await t.request(`/api/runs/${run.data.id}/finish`, { token: owner.token, body: { status: 'succeeded', actionsPerformed: 1 } }),
      200,
    )
    await t.services.outgoingWebhooks.deliverDue()
    const delivered = received.find((entry) => entry.path === '/runs')
    const message = new Webhook(hook.secret).verify(delivered?.body ?? '', delivered?.headers ?? {}) as Message
    expect(message.data).toMatchObject({ run: { id: run.data.id, status: 'succeeded' }, extracted: { data: [{ price: '$9' }] } })
    // The rows are the run's own data: their fields differ from the example's, not the message's shape.
    const withoutRows = (data: Record<string, unknown>) => ({ ...data, extracted: { ...(data.extracted as object), data: [] } })
    expect(shapeOf(withoutRows(WEBHOOK_EXAMPLES['run.succeeded']))).toEqual(shapeOf(withoutRows(message.data)))
    expect((await t.request(`/api/hooks/${hook.id}`, { method: 'DELETE', token: key })).status).toBe(204)
  })

  it('has an example of every event, and refuses an unknown event, a private address and a plan without webhooks', async () => {
    const key = await keyOf(owner)
    for (const event of WEBHOOK_EVENTS) {
      const { data } = await json<{ data: Message[] }>(await t.request(`/api/hooks/samples/${event}`, { token: key }), 200)
      expect(data[0]?.type).toBe(event)
    }
    const unknown = await json<{ message: string }>(await t.request('/api/hooks/samples/run.exploded', { token: key }), 400)
    expect(unknown.message).toMatch(/event must be one of: run\.succeeded/)
    const badEvent = await json<{ issues: { path: string }[] }>(
      await t.request('/api/hooks', { token: key, body: { target_url: `${base}/x`, event: 'nope' } }),
      400,
    )
    expect(badEvent.issues.map((issue) => issue.path)).toEqual(['event'])

    const strict = await createTestApp()
    try {
      const member = await strict.signUp()
      await strict.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, member.id))
      const privateAddress = await strict.request('/api/hooks', {
        token: member.token,
        body: { target_url: 'http://127.0.0.1:9/hook', event: 'run.failed' },
      })
      expect(privateAddress.status).toBe(400)
      const free = await strict.signUp()
      const noPlan = await strict.request('/api/hooks', {
        token: free.token,
        body: { target_url: 'https://hooks.example.com/x', event: 'run.failed' },
      })
      expect(noPlan.status).toBe(409)
    } finally {
      await strict.close()
    }
  })
})
