import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CREDITS_LOW_THRESHOLD, WEBHOOK_DISABLE_AFTER_FAILURES, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '#common/webhooks.ts'
import { automationRuns, webhookEndpoints, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { signatureOf, signedHeaders } from './webhook-signing.ts'

type Member = Awaited<ReturnType<TestApp['signUp']>>
type Endpoint = { id: string; url: string; events: string[]; enabled: boolean; secret?: string; disabledReason: string | null }
type Delivery = {
  id: string
  messageId: string
  eventType: string
  status: string
  attempts: number
  log: { attempt: number; statusCode: number | null; responseMs: number; ok: boolean; error: string | null; at: string }[]
}
type Received = { path: string; headers: IncomingHttpHeaders; body: string; verified: boolean; duplicate: boolean; error?: string }

let t: TestApp
let owner: Member
let other: Member
let receiver: Server
let base: string
const received: Received[] = []
/** The secret each receiver path verifies with (set once the endpoint is created). */
const secrets = new Map<string, string>()
/** Statuses each path answers with, in turn; 200 once the list is used up. */
const scripts = new Map<string, number[]>()
const seenIds = new Set<string>()

beforeAll(async () => {
  // The receiver is on 127.0.0.1: this app lets webhooks (like cloud runs) reach loopback.
  t = await createTestApp({ privateTargets: 'loopback' })
  owner = await t.signUp({ email: 'owner@example.com' })
  other = await t.signUp({ email: 'other@example.com' })
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, other.id))
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const path = request.url ?? '/'
      const entry: Received = { path, headers: request.headers, body, verified: false, duplicate: false }
      const secret = secrets.get(path)
      try {
        // The receiver's side, with the Standard Webhooks library.
        if (secret) new Webhook(secret).verify(body, request.headers as Record<string, string>)
        entry.verified = Boolean(secret)
      } catch (error) {
        entry.error = error instanceof Error ? error.message : String(error)
      }
      const id = String(request.headers['webhook-id'])
      entry.duplicate = seenIds.has(id)
      received.push(entry)
      const status = scripts.get(path)?.shift() ?? 200
      if (status === 200) seenIds.add(id)
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope')
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

async function createEndpoint(member: Member, path: string, events: string[] = ['run.succeeded', 'run.failed']): Promise<Endpoint> {
  const { data } = await json<{ data: Endpoint }>(
    await t.request('/api/webhooks', { token: member.token, body: { url: `${base}${path}`, events, description: 'Test receiver' } }),
    201,
  )
  if (data.secret) secrets.set(path, data.secret)
  return data
}

async function deliveriesOf(member: Member, endpointId: string): Promise<Delivery[]> {
  return (
    await json<{ data: Delivery[] }>(await t.request(`/api/webhooks/${endpointId}/deliveries?limit=100`, { token: member.token }), 200)
  ).data
}

async function finishedClientRun(member: Member, status: 'succeeded' | 'failed', extracted: Record<string, string>[] = []) {
  const automation = await json<{ data: { id: string } }>(
    await t.request('/api/automations', {
      token: member.token,
      body: { name: 'Price watch', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
    }),
    201,
  )
  const run = await json<{ data: { id: string } }>(
    await t.request(`/api/automations/${automation.data.id}/runs`, { token: member.token, body: { where: 'client' } }),
    201,
  )
  if (extracted.length) await json(await t.request(`/api/runs/${run.data.id}/progress`, { token: member.token, body: { extracted } }), 200)
  await json(
    await t.request(`/api/runs/${run.data.id}/finish`, {
      token: member.token,
      body: { status, actionsPerformed: 1, ...(status === 'failed' ? { error: 'The button was not found' } : {}) },
    }),
    200,
  )
  return { automationId: automation.data.id, runId: run.data.id }
}

describe('delivery with retries', () => {
  it('signs per Standard Webhooks, retries a 500 twice with backoff, and logs every attempt', async () => {
    const endpoint = await createEndpoint(owner, '/flaky')
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    scripts.set('/flaky', [500, 500])
    const { runId, automationId } = await finishedClientRun(owner, 'succeeded', [{ price: '19.99' }])

    const start = new Date()
    expect(await t.services.outgoingWebhooks.deliverDue(start)).toBe(1)
    // Not due again until the backoff delay has passed.
    expect(await t.services.outgoingWebhooks.deliverDue(new Date(start.getTime() + 1_000))).toBe(0)
    const second = new Date(start.getTime() + WEBHOOK_RETRY_DELAYS_MS[0] + 1_000)
    expect(await t.services.outgoingWebhooks.deliverDue(second)).toBe(1)
    const third = new Date(second.getTime() + WEBHOOK_RETRY_DELAYS_MS[1] + 1_000)
    expect(await t.services.outgoingWebhooks.deliverDue(third)).toBe(1)
    expect(await t.services.outgoingWebhooks.deliverDue(new Date(third.getTime() + 3_600_000))).toBe(0)

    const calls = received.filter((entry) => entry.path === '/flaky')
    expect(calls).toHaveLength(3)
    // Every attempt verified with the library; the same message id each time, a new timestamp.
    expect(calls.map((call) => [call.verified, call.error])).toEqual([
      [true, undefined],
      [true, undefined],
      [true, undefined],
    ])
    expect(new Set(calls.map((call) => call.headers['webhook-id'])).size).toBe(1)
    expect(new Set(calls.map((call) => call.headers['webhook-timestamp'])).size).toBe(3)

    const payload = JSON.parse(calls[2]?.body ?? '{}') as {
      type: string
      timestamp: string
      workspaceId: string
      data: { run: Record<string, unknown>; extracted: { rows: number; data: unknown; url: string | null } }
    }
    expect(payload).toMatchObject({
      type: 'run.succeeded',
      workspaceId: owner.id,
      data: {
        run: {
          id: runId,
          automationId,
          automationName: 'Price watch',
          status: 'succeeded',
          trigger: 'extension',
          runner: 'client',
          creditsCharged: 0,
        },
        extracted: { rows: 1, data: [{ price: '19.99' }], url: null },
      },
    })
    expect(payload.data.run.finishedAt).toEqual(expect.any(String))

    const [delivery] = await deliveriesOf(owner, endpoint.id)
    expect(delivery).toMatchObject({ eventType: 'run.succeeded', status: 'succeeded', attempts: 3 })
    expect(delivery?.log.map((entry) => [entry.attempt, entry.statusCode, entry.ok])).toEqual([
      [3, 200, true],
      [2, 500, false],
      [1, 500, false],
    ])
    expect(delivery?.log.every((entry) => entry.responseMs >= 0 && entry.at)).toBe(true)
  })

  it('lets a receiver detect replays: a redelivery repeats the message id, and an old timestamp fails verification', async () => {
    const endpoint = await createEndpoint(owner, '/replays', ['run.failed'])
    await finishedClientRun(owner, 'failed')
    await t.services.outgoingWebhooks.deliverDue()
    const [delivery] = await deliveriesOf(owner, endpoint.id)
    expect(delivery).toMatchObject({ eventType: 'run.failed', status: 'succeeded', attempts: 1 })

    const again = await json<{ data: Delivery }>(
      await t.request(`/api/webhooks/${endpoint.id}/deliveries/${delivery?.id}/redeliver`, { token: owner.token, method: 'POST' }),
      200,
    )
    expect(again.data).toMatchObject({ status: 'succeeded', attempts: 2, messageId: delivery?.messageId })
    const calls = received.filter((entry) => entry.path === '/replays')
    expect(calls.map((call) => [call.verified, call.duplicate])).toEqual([
      [true, false],
      [true, true],
    ])

    // A captured message sent again later: its signed timestamp gives it away.
    const first = calls[0]
    const secret = secrets.get('/replays') ?? ''
    const stale = signedHeaders(secret, String(first?.headers['webhook-id']), first?.body ?? '', new Date(Date.now() - 10 * 60_000))
    expect(() => new Webhook(secret).verify(first?.body ?? '', stale)).toThrow(WebhookVerificationError)
    expect(() => new Webhook(secret).verify(first?.body ?? '', stale)).toThrow('Message timestamp too old')
    // A changed body does not verify.
    const fresh = signedHeaders(secret, 'msg_x', first?.body ?? '', new Date())
    expect(() => new Webhook(secret).verify(`${first?.body} `, fresh)).toThrow(WebhookVerificationError)
  })

  it('sends a test event now and answers how the receiver took it', async () => {
    const endpoint = await createEndpoint(owner, '/test-event', ['credits.low'])
    const { data } = await json<{ data: Delivery }>(
      await t.request(`/api/webhooks/${endpoint.id}/test`, { token: owner.token, method: 'POST' }),
      200,
    )
    expect(data).toMatchObject({ eventType: 'webhook.test', status: 'succeeded', attempts: 1 })
    expect(data.log[0]).toMatchObject({ statusCode: 200, ok: true })
    const call = received.filter((entry) => entry.path === '/test-event').at(-1)
    expect(call?.verified).toBe(true)
    expect(JSON.parse(call?.body ?? '{}')).toMatchObject({ type: 'webhook.test', workspaceId: owner.id })
  })

  it('after a rotation, signs with the new secret and, for 24 hours, the old one too', async () => {
    const endpoint = await createEndpoint(owner, '/rotated', ['automation.changed'])
    const oldSecret = secrets.get('/rotated') ?? ''
    const { data } = await json<{ data: Endpoint }>(
      await t.request(`/api/webhooks/${endpoint.id}/rotate-secret`, { token: owner.token, method: 'POST' }),
      200,
    )
    expect(data.secret).toMatch(/^whsec_/)
    expect(data.secret).not.toBe(oldSecret)
    expect(JSON.stringify(data)).not.toContain(oldSecret)
    const sent = await json<{ data: Delivery }>(
      await t.request(`/api/webhooks/${endpoint.id}/test`, { token: owner.token, method: 'POST' }),
      200,
    )
    expect(sent.data.status).toBe('succeeded')
    const call = received.filter((entry) => entry.path === '/rotated').at(-1)
    const headers = call?.headers as Record<string, string>
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2)
    // A receiver on either secret accepts it while the overlap lasts.
    expect(() => new Webhook(data.secret ?? '').verify(call?.body ?? '', headers)).not.toThrow()
    expect(() => new Webhook(oldSecret).verify(call?.body ?? '', headers)).not.toThrow()

    // A day later, only the new secret signs.
    const later = await t.services.outgoingWebhooks.sendTest(
      { id: owner.id, email: owner.email, emailVerified: true, role: 'user', workspace: { id: owner.id, role: 'owner' } },
      endpoint.id,
      new Date(Date.now() + 25 * 60 * 60 * 1000),
    )
    expect(later.status).toBe('succeeded')
    const last = received.filter((entry) => entry.path === '/rotated').at(-1)
    expect(last?.headers['webhook-signature']).toBe(
      signatureOf(data.secret ?? '', String(last?.headers['webhook-id']), Number(last?.headers['webhook-timestamp']), last?.body ?? ''),
    )
  })
})

describe('events', () => {
  it('automation.changed on create, update and delete; credits.low when the balance crosses the threshold', async () => {
    const member = await t.signUp({ email: 'events@example.com' })
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, member.id))
    const endpoint = await createEndpoint(member, '/events', ['automation.changed', 'credits.low'])
    const created = await json<{ data: { id: string } }>(
      await t.request('/api/automations', {
        token: member.token,
        body: { name: 'Watcher', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      }),
      201,
    )
    const schedule = { kind: 'daily', time: '08:00', timeZone: 'Europe/Berlin' }
    await json(
      await t.request(`/api/automations/${created.data.id}`, {
        token: member.token,
        method: 'PUT',
        body: { name: 'Watcher 2', schedule: { ...schedule, paused: true } },
      }),
      200,
    )
    expect((await t.request(`/api/automations/${created.data.id}`, { token: member.token, method: 'DELETE' })).status).toBeLessThan(300)
    // The balance crosses the threshold once (a second fall below it sends nothing more).
    const balance =
      (await t.db.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, member.id)))[0]?.credits ?? 0
    await t.services.credits.setBalance(member.id, CREDITS_LOW_THRESHOLD + 5, { actorId: member.id })
    await t.services.credits.change({ workspaceId: member.id, delta: -10, reason: 'usage' })
    await t.services.credits.change({ workspaceId: member.id, delta: -1, reason: 'usage' })
    expect(balance).toBeGreaterThanOrEqual(0)
    await t.services.outgoingWebhooks.deliverDue()

    const bodies = received
      .filter((entry) => entry.path === '/events')
      .map((entry) => JSON.parse(entry.body) as { type: string; data: Record<string, unknown> })
    expect(bodies.map((body) => [body.type, body.data.change ?? body.data.balance])).toEqual(
      expect.arrayContaining([
        ['automation.changed', 'created'],
        ['automation.changed', 'updated'],
        ['automation.changed', 'deleted'],
        ['credits.low', CREDITS_LOW_THRESHOLD - 5],
      ]),
    )
    expect(bodies.filter((body) => body.type === 'credits.low')).toHaveLength(1)
    // The schedule as the API answers it (docs/decisions/036).
    const updated = bodies.find((body) => body.type === 'automation.changed' && body.data.change === 'updated')
    expect(updated?.data.automation).toMatchObject({ enabled: false, schedule: { ...schedule, paused: true } })
    expect((await deliveriesOf(member, endpoint.id)).every((delivery) => delivery.status === 'succeeded')).toBe(true)
  })

  it('run.failed from the cloud queue (with the refund of our failure) and run.cancelled from a cancel', async () => {
    const member = await t.signUp({ email: 'cloud@example.com' })
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, member.id))
    await t.services.credits.change({ workspaceId: member.id, delta: 50, reason: 'admin_edit' })
    const endpoint = await createEndpoint(member, '/cloud', ['run.failed', 'run.cancelled'])
    const automation = await json<{ data: { id: string } }>(
      await t.request('/api/automations', {
        token: member.token,
        body: { name: 'Cloud', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      }),
      201,
    )
    const start = () => t.request(`/api/automations/${automation.data.id}/runs`, { token: member.token, body: { where: 'cloud' } })
    const failing = await json<{ data: { id: string } }>(await start(), 201)
    // The worker's side, without a browser: it claims the run and reports a failure of ours.
    const claimed = await t.services.runQueue.claim('webhook-test-worker')
    expect(claimed?.id).toBe(failing.data.id)
    await t.services.runQueue.finish(failing.data.id, 'webhook-test-worker', {
      status: 'failed',
      error: 'The browser did not start',
      ourFault: true,
    })
    const cancelled = await json<{ data: { id: string } }>(await start(), 201)
    await json(await t.request(`/api/runs/${cancelled.data.id}/cancel`, { token: member.token, method: 'POST' }), 200)
    await t.services.outgoingWebhooks.deliverDue()

    const runs = received
      .filter((entry) => entry.path === '/cloud')
      .map((entry) => JSON.parse(entry.body) as { type: string; data: { run: Record<string, unknown> } })
    expect(runs.map((body) => [body.type, body.data.run.id, body.data.run.runner, body.data.run.refunded, body.data.run.error])).toEqual([
      ['run.failed', failing.data.id, 'cloud', true, 'The browser did not start'],
      ['run.cancelled', cancelled.data.id, 'cloud', true, null],
    ])
    expect(runs[0]?.data.run.creditsCharged).toBe(1)
    expect((await deliveriesOf(member, endpoint.id)).map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded'])
  })

  it('sends nothing to endpoints that did not choose the event, or are off', async () => {
    const member = await t.signUp({ email: 'quiet@example.com' })
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, member.id))
    const chosen = await createEndpoint(member, '/quiet-a', ['run.cancelled'])
    const off = await createEndpoint(member, '/quiet-b', ['run.succeeded'])
    await json(await t.request(`/api/webhooks/${off.id}`, { token: member.token, method: 'PATCH', body: { enabled: false } }), 200)
    await finishedClientRun(member, 'succeeded')
    await t.services.outgoingWebhooks.deliverDue()
    expect(await deliveriesOf(member, chosen.id)).toEqual([])
    expect(await deliveriesOf(member, off.id)).toEqual([])
  })

  it('puts large extracted data behind a signed, expiring link, and the link serves it', async () => {
    const member = await t.signUp({ email: 'large@example.com' })
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, member.id))
    await createEndpoint(member, '/large', ['run.succeeded'])
    const rows = Array.from({ length: 300 }, (_, i) => ({ row: String(i), text: 'x'.repeat(300) }))
    const automation = await json<{ data: { id: string } }>(
      await t.request('/api/automations', {
        token: member.token,
        body: { name: 'Big', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      }),
      201,
    )
    const run = await json<{ data: { id: string } }>(
      await t.request(`/api/automations/${automation.data.id}/runs`, { token: member.token, body: { where: 'client' } }),
      201,
    )
    await json(await t.request(`/api/runs/${run.data.id}/progress`, { token: member.token, body: { extracted: rows } }), 200)
    // A screenshot as a cloud run stores it.
    await t.services.runFiles.saveScreenshot(run.data.id, 'step-1-1.png', new Uint8Array([137, 80, 78, 71]))
    await t.db
      .update(automationRuns)
      .set({ screenshots: [{ name: 'Step 1', file: 'step-1-1.png', step: 1 }] })
      .where(eq(automationRuns.id, run.data.id))
    await json(await t.request(`/api/runs/${run.data.id}/finish`, { token: member.token, body: { status: 'succeeded' } }), 200)
    await t.services.outgoingWebhooks.deliverDue()

    const call = received.filter((entry) => entry.path === '/large').at(-1)
    const payload = JSON.parse(call?.body ?? '{}') as {
      data: { extracted: { rows: number; data: unknown; url: string }; screenshots: { url: string }[] }
    }
    expect(payload.data.extracted).toMatchObject({ rows: 300, data: null })
    const extractedUrl = new URL(payload.data.extracted.url)
    expect(extractedUrl.pathname).toBe(`/api/runs/${run.data.id}/artifacts/extracted.json`)
    // No session needed: the signature is the credential.
    const fetched = await t.request(`${extractedUrl.pathname}${extractedUrl.search}`)
    expect(await json<unknown[]>(fetched, 200)).toHaveLength(300)
    const shot = new URL(payload.data.screenshots[0]?.url ?? '')
    const image = await t.request(`${shot.pathname}${shot.search}`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')

    // A changed link, another file or an expired one: 404.
    const tampered = `${shot.pathname.replace('step-1-1', 'step-1-2')}${shot.search}`
    expect((await t.request(tampered)).status).toBe(404)
    const later = new URL(shot)
    later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 60))
    expect((await t.request(`${later.pathname}${later.search}`)).status).toBe(404)
    const expiredLink = t.services.artifactLinks.link(run.data.id, 'step-1-1.png', new Date(Date.now() - 1_000))
    const expired = new URL(expiredLink)
    expect((await t.request(`${expired.pathname}${expired.search}`)).status).toBe(404)
    expect((await t.request(`/api/runs/${run.data.id}/artifacts/step-1-1.png`)).status).toBe(404)
  })
})

describe('failing endpoints', () => {
  it(`are disabled after ${WEBHOOK_DISABLE_AFTER_FAILURES} failed deliveries in a row, and the owner gets a mail`, async () => {
    const member = await t.signUp({ email: 'failing@example.com' })
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, member.id))
    const endpoint = await createEndpoint(member, '/down', ['run.succeeded'])
    scripts.set(
      '/down',
      Array.from({ length: 100 }, () => 503),
    )
    let now = Date.now()
    for (let n = 0; n < WEBHOOK_DISABLE_AFTER_FAILURES; n++) {
      await finishedClientRun(member, 'succeeded')
      for (let attempt = 0; attempt < WEBHOOK_MAX_ATTEMPTS; attempt++) {
        now += 3_600_000
        await t.services.outgoingWebhooks.deliverDue(new Date(now))
      }
    }
    const deliveries = await deliveriesOf(member, endpoint.id)
    expect(deliveries).toHaveLength(WEBHOOK_DISABLE_AFTER_FAILURES)
    expect(deliveries.every((delivery) => delivery.status === 'failed' && delivery.attempts === WEBHOOK_MAX_ATTEMPTS)).toBe(true)
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id))
    expect(row).toMatchObject({ enabled: false, consecutiveFailures: WEBHOOK_DISABLE_AFTER_FAILURES })
    expect(row?.disabledReason).toContain('503')
    const mail = (await t.services.mailer.list({ page: 1, limit: 10, to: member.email })).items[0]
    expect(mail?.subject).toBe('A webhook endpoint was disabled')
    expect(mail?.text).toContain(endpoint.url)

    // Off: new events are not queued for it.
    await finishedClientRun(member, 'succeeded')
    expect(await deliveriesOf(member, endpoint.id)).toHaveLength(WEBHOOK_DISABLE_AFTER_FAILURES)
    // Turned on again, it starts with a clean count.
    const { data } = await json<{ data: Endpoint & { consecutiveFailures: number } }>(
      await t.request(`/api/webhooks/${endpoint.id}`, { token: member.token, method: 'PATCH', body: { enabled: true } }),
      200,
    )
    expect(data).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null })
  })

  it('records a timeout-free connection failure without a status code', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const { data } = await json<{ data: Endpoint }>(
      await t.request('/api/webhooks', { token: owner.token, body: { url: `http://127.0.0.1:${port}/gone`, events: ['run.failed'] } }),
      201,
    )
    const sent = await json<{ data: Delivery }>(
      await t.request(`/api/webhooks/${data.id}/test`, { token: owner.token, method: 'POST' }),
      200,
    )
    expect(sent.data.status).toBe('failed')
    expect(sent.data.log[0]).toMatchObject({ statusCode: null, ok: false })
    expect(sent.data.log[0]?.error).toMatch(/Could not connect/)
  })
})

describe('who may manage webhooks', () => {
  it('refuses private addresses when the app allows public ones only', async () => {
    const strict = await createTestApp()
    try {
      const member = await strict.signUp({ email: 'strict@example.com' })
      await strict.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, member.id))
      for (const url of ['http://127.0.0.1:9/hook', 'http://10.0.0.5/hook', 'http://169.254.169.254/latest', 'http://[::1]/hook']) {
        const refused = await json<{ message: string; issues: { path: string }[] }>(
          await strict.request('/api/webhooks', { token: member.token, body: { url, events: ['run.failed'] } }),
          400,
        )
        expect(refused.message).toMatch(/^The webhook URL cannot be used: the address .* (private|metadata)/)
        expect(refused.issues[0]?.path).toBe('url')
      }
      const other = await json<{ message: string }>(
        await strict.request('/api/webhooks', { token: member.token, body: { url: 'ftp://example.com/x', events: ['run.failed'] } }),
        400,
      )
      expect(other.message).toContain('http(s)')
    } finally {
      await strict.close()
    }
  })

  it('is part of the plan: Free is refused naming Business, and Business keeps at most its allowance', async () => {
    const free = await t.signUp({ email: 'free@example.com' })
    const refused = await json<{ message: string; code: string }>(
      await t.request('/api/webhooks', { token: free.token, body: { url: `${base}/free`, events: ['run.failed'] } }),
      409,
    )
    expect(refused).toEqual({
      message: 'Webhooks are part of the Business plan; you are on the Free plan. Upgrade to use them.',
      code: 'PLAN_LIMIT',
    })
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, free.id))
    const business = (await t.services.plans.list()).find((plan) => plan.slug === 'business')
    expect(business?.webhooks).toBe(10)
    await t.services.plans.update({ id: owner.id, email: owner.email }, business?.id ?? '', { webhooks: 2 })
    try {
      await createEndpoint(free, '/one')
      await createEndpoint(free, '/two')
      const full = await json<{ message: string }>(
        await t.request('/api/webhooks', { token: free.token, body: { url: `${base}/three`, events: ['run.failed'] } }),
        409,
      )
      expect(full.message).toBe('The Business plan includes 2 webhook endpoints, and this workspace has 2.')
    } finally {
      await t.services.plans.update({ id: owner.id, email: owner.email }, business?.id ?? '', { webhooks: 10 })
    }
  })

  it('another workspace’s endpoint is unknown (404), and secrets are never listed', async () => {
    const mine = await createEndpoint(other, '/others')
    for (const [method, path] of [
      ['PATCH', `/api/webhooks/${mine.id}`],
      ['DELETE', `/api/webhooks/${mine.id}`],
      ['POST', `/api/webhooks/${mine.id}/rotate-secret`],
      ['GET', `/api/webhooks/${mine.id}/deliveries`],
      ['POST', `/api/webhooks/${mine.id}/test`],
      ['POST', `/api/webhooks/${mine.id}/deliveries/00000000-0000-0000-0000-000000000000/redeliver`],
    ] as const) {
      const response = await t.request(path, { token: owner.token, method, body: method === 'PATCH' ? { enabled: false } : undefined })
      expect(response.status, `${method} ${path}`).toBe(404)
    }
    const listed = await json<{ data: Endpoint[] }>(await t.request('/api/webhooks', { token: owner.token }), 200)
    expect(listed.data.map((endpoint) => endpoint.id)).not.toContain(mine.id)
    expect(JSON.stringify(listed)).not.toContain('whsec_')
    expect(JSON.stringify(await json(await t.request('/api/webhooks', { token: other.token }), 200))).not.toContain('whsec_')
  })

  it('team owners and admins manage webhooks; members and viewers are refused (403)', async () => {
    const team = await json<{ data: { id: string } }>(
      await t.request('/api/workspaces', { token: owner.token, body: { name: 'Hooks team' } }),
      201,
    )
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, team.data.id))
    const people = {
      admin: await t.signUp({ email: 'team-admin@example.com' }),
      member: await t.signUp({ email: 'team-member@example.com' }),
      viewer: await t.signUp({ email: 'team-viewer@example.com' }),
    }
    for (const [role, person] of Object.entries(people)) {
      await t.db
        .insert(workspaceMembers)
        .values({ workspaceId: team.data.id, userId: person.id, role: role as 'admin' | 'member' | 'viewer' })
    }
    const inTeam = (person: Member) => ({ token: person.token, headers: { 'x-workspace-id': team.data.id } })
    const made = await json<{ data: Endpoint }>(
      await t.request('/api/webhooks', { ...inTeam(people.admin), body: { url: `${base}/team`, events: ['run.failed'] } }),
      201,
    )
    expect((await json<{ data: Endpoint[] }>(await t.request('/api/webhooks', inTeam(owner)), 200)).data.map((e) => e.id)).toEqual([
      made.data.id,
    ])
    for (const person of [people.member, people.viewer]) {
      expect((await t.request('/api/webhooks', inTeam(person))).status).toBe(403)
      const refused = await t.request('/api/webhooks', { ...inTeam(person), body: { url: `${base}/team`, events: ['run.failed'] } })
      expect(refused.status).toBe(403)
      expect((await t.request(`/api/webhooks/${made.data.id}/test`, { ...inTeam(person), method: 'POST' })).status).toBe(403)
    }
    // The team's endpoint is not the admin's personal workspace's.
    expect((await t.request(`/api/webhooks/${made.data.id}/test`, { token: people.admin.token, method: 'POST' })).status).toBe(404)
    expect((await t.request(`/api/webhooks/${made.data.id}`, { ...inTeam(owner), method: 'DELETE' })).status).toBe(204)
  })
})
