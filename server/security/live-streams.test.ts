/**
 * Every live stream of the API (each text/event-stream answer of the OpenAPI document) ends, and
 * delivers nothing more, once the right that opened it ends: a sign-out, a demotion (for admin
 * streams), a revoked API key (server/http/live-stream.ts, ADR 015) or a revoked device (ADR 031). After the change, every kind
 * of event the bus carries is published for the caller, so whatever a stream follows, it would
 * have something to deliver.
 */
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import type { Access, OpenApiDocument } from '#server/testing/arbitrary-requests.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { eventReader } from '#server/testing/event-stream-reader.ts'

type Account = Awaited<ReturnType<TestApp['signUp']>>
type StreamOperation = { path: string; access: Exclude<Access, 'anyone'> }
type Change = 'signs out' | 'is demoted' | 'has the key revoked' | 'has the device revoked'

const t: TestApp = await createTestApp()
afterAll(async () => {
  await t.close()
})
const root = await t.signUp({ role: 'admin' })

const document = (await (await t.request('/api/openapi.json')).json()) as OpenApiDocument & {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }>; 'x-access'?: Access }>>
}
const streams: StreamOperation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.values(methods)
    .filter((operation) => operation.responses?.['200']?.content?.['text/event-stream'])
    .map((operation) => ({ path: `/api${path}`, access: operation['x-access'] as StreamOperation['access'] })),
)

/** A device of the account's, connected through the pairing flow (docs/decisions/031). */
async function connectDevice(account: Account): Promise<{ id: string; token: string }> {
  const asked = await t.request('/api/devices/pairings', {
    body: { name: 'Stream device', kind: 'extension', version: '1' },
    ip: t.freshIp(),
  })
  const { data: pairing } = (await asked.json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }
  await t.services.pairings.approve(
    pairing.userCode,
    { id: account.id, email: account.email, twoFactorEnabled: false },
    account.id,
    t.freshIp(),
  )
  const collected = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, { body: { pollSecret: pairing.pollSecret } })
  const { data } = (await collected.json()) as { data: { token: string; device: { id: string } } }
  return { id: data.device.id, token: data.token }
}

async function changeFor(change: Change, account: Account, key: { id: string } | null) {
  if (change === 'signs out') expect((await t.request('/api/auth/logout', { method: 'POST', token: account.token })).status).toBe(200)
  if (change === 'is demoted') {
    expect((await t.request(`/api/users/${account.id}`, { method: 'PUT', body: { role: 'user' }, token: root.token })).status).toBe(200)
  }
  if (change === 'has the key revoked' && key) {
    expect((await t.request(`/api/keys/${key.id}`, { method: 'DELETE', token: account.token })).status).toBe(200)
  }
  if (change === 'has the device revoked' && key) {
    expect((await t.request(`/api/devices/${key.id}`, { method: 'DELETE', token: account.token })).status).toBe(200)
  }
}

/** A cloud run of the account's that a worker has taken up (set so directly: no worker runs here), for the streams about one run. */
async function runningCloudRun(account: Account): Promise<string> {
  await t.db.update(workspaces).set({ credits: 10 }).where(eq(workspaces.id, account.id))
  const steps = [{ type: 'navigate', url: 'https://example.com/' }]
  const created = await t.request('/api/automations', { body: { name: 'Streamed', steps }, token: account.token })
  const automationId = ((await created.json()) as { data: { id: string } }).data.id
  const started = await t.request(`/api/automations/${automationId}/runs`, { body: { where: 'cloud' }, token: account.token })
  const runId = ((await started.json()) as { data: { id: string } }).data.id
  await t.db.update(automationRuns).set({ status: 'running', startedAt: new Date() }).where(eq(automationRuns.id, runId))
  return runId
}

/** One event of every kind the bus carries, each about this member (and its run). */
function publishEverything(userId: string, runId: string) {
  t.services.events.publish('inquiry', { type: 'created', id: crypto.randomUUID(), name: 'After the change' })
  t.services.events.publish('run', { id: crypto.randomUUID(), workspaceId: userId, status: 'running', automationId: null })
  t.services.events.publish('liveFrame', { runId, seq: Date.now(), paused: true, width: 0, height: 0 })
}

describe('live streams end with the right that opened them', () => {
  it('finds the streams', () => {
    expect(streams.map((stream) => stream.path).sort()).toEqual(['/api/events/inquiries', '/api/runs/events', '/api/runs/{id}/live'])
  })

  const cases = streams.flatMap((stream) =>
    (['signs out', 'is demoted', 'has the key revoked', 'has the device revoked'] as const)
      .filter((change) => change !== 'is demoted' || stream.access.who === 'admin')
      // A device opens only the streams of its scope (docs/decisions/031).
      .filter((change) => change !== 'has the device revoked' || (stream.access.who === 'member' && stream.access.apiKey === 'automations'))
      .map((change) => [stream.path, change, stream] as const),
  )

  it.each(cases)('%s: the caller %s', async (_path, change, stream) => {
    const account = await t.signUp({ role: stream.access.who === 'admin' ? 'admin' : 'user' })
    let token = account.token
    let key: { id: string } | null = null
    if (change === 'has the key revoked') {
      const scopes = stream.access.apiKey === 'any' || stream.access.apiKey === 'never' ? ['automations'] : [stream.access.apiKey]
      const created = await t.request('/api/keys', { body: { name: 'Stream key', scopes }, token: account.token })
      const data = ((await created.json()) as { data: { id: string; key: string } }).data
      key = data
      token = data.key
    }
    if (change === 'has the device revoked') {
      const device = await connectDevice(account)
      key = device
      token = device.token
    }
    const runId = await runningCloudRun(account)
    const response = await t.request(stream.path.replace('{id}', runId), { token })
    expect(response.status).toBe(200)
    const events = eventReader(response)
    try {
      expect((await events.next()).event).toBe('ready')
      // Before the change it delivers (so the test would see a delivery)...
      publishEverything(account.id, runId)
      expect((await events.next()).event).not.toBe('ready')
      // ...after it, nothing more, and the stream ends.
      await changeFor(change, account, key)
      publishEverything(account.id, runId)
      await expect(events.next()).rejects.toThrow('the stream ended')
    } finally {
      await events.cancel().catch(() => {})
    }
  })
})
