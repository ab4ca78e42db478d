import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaces } from '../../server/db/schema/index.ts'
import { newMessageId, newWebhookSecret, signedHeaders } from '../../server/features/webhooks/webhook-signing.ts'
import { listenOnLoopback } from '../../server/testing/app-listener.ts'
import { personalCaller } from '../../server/testing/callers.ts'
import { startTestSite } from '../../server/testing/cloud-run-site.ts'
import { createTestApp, type TestApp } from '../../server/testing/create-test-app.ts'
import { startCloudWorker } from '../../server/testing/run-to-end.ts'
import {
  ApiError,
  createAetherClient,
  dataOf,
  PairingEndedError,
  startPairing,
  TokenRefusedError,
  verifyWebhook,
  waitForApproval,
  WebhookVerificationError,
  type AetherClient,
} from './index.ts'

// The SDK against a real server (the app behind a listener on 127.0.0.1, a cloud worker and a
// practice site): the README's three examples as calls, its errors, its pairing loop, and its
// webhook check against the server's own signing.

let t: TestApp
let listener: Awaited<ReturnType<typeof listenOnLoopback>> | undefined
let base: string
let site: Awaited<ReturnType<typeof startTestSite>>
let member: Awaited<ReturnType<TestApp['signUp']>>
let automationId: string
let key: string

beforeAll(async () => {
  t = await createTestApp({ privateTargets: 'loopback' })
  listener = await listenOnLoopback(t.app.fetch)
  base = listener.url
  site = await startTestSite()
  member = await t.signUp({ email: 'sdk-user@example.com' })
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, member.id))
  const automation = await t.services.automations.create(personalCaller(member), {
    name: 'Sign up a name',
    description: 'Fills in the form',
    steps: [
      { type: 'navigate', url: `${site.url}/form` },
      { type: 'type', target: [{ by: 'css', selector: '#name' }], text: '{{input.name}}' },
      { type: 'click', target: [{ by: 'css', selector: '#submit' }] },
      { type: 'wait', target: [{ by: 'css', selector: '#result' }] },
      { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
    ],
    schedule: null,
    enabled: true,
  })
  automationId = automation.id
  const made = await t.request('/api/keys', { token: member.token, body: { name: 'SDK' } })
  key = ((await made.json()) as { data: { key: string } }).data.key
})
afterAll(async () => {
  await listener?.close()
  await site?.close()
  await t?.close()
})

/** Reads the run again until it has ended, as the README's first example does. */
async function untilEnded(aether: AetherClient, id: string) {
  for (;;) {
    const run = await dataOf(aether.GET('/runs/{id}', { params: { path: { id } } }))
    if (run.status !== 'queued' && run.status !== 'running') return run
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('the SDK against a real server', () => {
  it('runs an automation with an API key and reads what it extracted (README example 1)', async () => {
    const worker = startCloudWorker(t)
    try {
      const aether = createAetherClient({ server: base, token: key })
      const automations = await dataOf(aether.GET('/automations', { params: { query: { limit: 100 } } }))
      expect(automations.map((automation) => automation.name)).toEqual(['Sign up a name'])
      const started = await dataOf(
        aether.POST('/automations/{id}/runs', {
          params: { path: { id: automationId } },
          body: { where: 'cloud', inputs: { name: 'Ada' } },
        }),
      )
      expect(started.status).toBe('queued')
      const run = await untilEnded(aether, started.id)
      expect(run).toMatchObject({ status: 'succeeded', extracted: [{ result: 'Thanks, Ada (free)' }] })
    } finally {
      await worker.stop(1_000)
    }
  })

  it('starts a run from a trigger URL without a token (README example 3)', async () => {
    const issued = await t.request(`/api/automations/${automationId}/trigger`, { token: member.token, method: 'POST' })
    const { secret } = ((await issued.json()) as { data: { secret: string } }).data
    const anyone = createAetherClient({ server: base })
    const run = await dataOf(anyone.POST('/triggers/{secret}', { params: { path: { secret } }, body: { inputs: { name: 'Grace' } } }))
    expect(run).toMatchObject({ status: 'queued', trigger: 'url', inputs: { name: 'Grace' } })
    await expect(dataOf(anyone.POST('/triggers/{secret}', { params: { path: { secret: `${secret}x` } }, body: {} }))).rejects.toMatchObject(
      { status: 401 },
    )
  })

  it("throws the server's refusals as ApiError, a revoked key as TokenRefusedError, and no answer as UNREACHABLE", async () => {
    const aether = createAetherClient({ server: base, token: key })
    await expect(dataOf(aether.GET('/runs/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } }))).rejects.toEqual(
      new ApiError(404, 'NOT_FOUND', 'Run not found'),
    )
    const invalid = await dataOf(aether.POST('/automations', { body: { name: '', steps: [] } })).catch((error: unknown) => error)
    expect(invalid).toBeInstanceOf(ApiError)
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })

    const revoked = createAetherClient({ server: base, token: 'ak_nothing_known', tokenRefusedMessage: 'Make a new key.' })
    const refused = await dataOf(revoked.GET('/automations')).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(TokenRefusedError)
    expect(refused).toMatchObject({ status: 401, message: 'Make a new key.' })
    // A wrong secret on a public route is that route's refusal, not the token's: the key stays good.
    const wrongSecret = await dataOf(revoked.POST('/triggers/{secret}', { params: { path: { secret: 'trg_unknown' } }, body: {} })).catch(
      (error: unknown) => error,
    )
    expect(wrongSecret).toBeInstanceOf(ApiError)
    expect(wrongSecret).not.toBeInstanceOf(TokenRefusedError)
    expect(wrongSecret).toMatchObject({ status: 401 })

    const closed = createServer().listen(0, '127.0.0.1')
    await once(closed, 'listening')
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const away = createAetherClient({ server: `http://127.0.0.1:${port}` })
    await expect(dataOf(away.GET('/plans'))).rejects.toMatchObject({
      status: 0,
      code: 'UNREACHABLE',
      message: expect.stringContaining('ECONNREFUSED'),
    })
  })

  it('names the route, never the address asked, and tells a failing proxy from a wrong address', async () => {
    const seen: Request[] = []
    const answers = [new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })]
    const behindProxy = createAetherClient({
      server: 'https://aether.example.com',
      clientVersion: '2.3.4',
      fetch: (request) => {
        seen.push(request)
        return Promise.resolve(answers.shift() ?? new Response('<html>Welcome</html>', { headers: { 'content-type': 'text/html' } }))
      },
    })
    const fire = () => dataOf(behindProxy.POST('/triggers/{secret}', { params: { path: { secret: 'trg_very_secret' } }, body: {} }))
    const restarting = (await fire().catch((error: unknown) => error)) as ApiError
    expect(restarting.message).toBe(
      'https://aether.example.com/api/triggers/{secret} answered 502: the server may be restarting, or a proxy in front of it failing. Try again in a moment.',
    )
    const elsewhere = (await fire().catch((error: unknown) => error)) as ApiError
    expect(elsewhere.message).toMatch(/\/api\/triggers\/\{secret\} answered 200, not as an Aether server does/)
    expect(`${restarting.message} ${elsewhere.message}`).not.toContain('trg_very_secret')
    expect(seen[0]?.headers.get('x-aether-client-version')).toBe('2.3.4')
    expect(seen[0]?.credentials).toBe('omit')
  })

  it('lets an aborted call end with the caller’s own reason, not as a server out of reach', async () => {
    const stop = new AbortController()
    const hanging = createAetherClient({
      server: base,
      fetch: (request) =>
        new Promise((_resolve, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason as Error))),
    })
    const call = dataOf(hanging.GET('/plans', { signal: stop.signal }))
    stop.abort(new Error('the member closed the panel'))
    await expect(call).rejects.toThrow('the member closed the panel')
  })

  it('says so when the address answers, but not as an Aether server does', async () => {
    const elsewhere = createAetherClient({ server: site.url })
    await expect(dataOf(elsewhere.GET('/plans'))).rejects.toMatchObject({
      message: expect.stringMatching(/\/api\/plans answered \d+, not as an Aether server does/),
    })
    expect(() => createAetherClient({ server: 'aether.example.com' })).toThrow(TypeError)
  })
})

describe('the pairing loop', () => {
  /** A site whose token route answers these, one a request, and records when it was asked. */
  function pairingSite(answers: (Response | Error)[]) {
    const asked: number[] = []
    const fetch = (request: Request) => {
      asked.push(Date.now())
      const next = answers.shift() ?? Response.json({ code: 'PAIRING_EXPIRED', message: 'Expired' }, { status: 410 })
      void request.body?.cancel()
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next)
    }
    return { aether: createAetherClient({ server: 'http://aether.test', fetch }), asked }
  }
  const pending = () => Response.json({ code: 'PAIRING_PENDING', message: 'Waiting' }, { status: 400 })
  const paired = { token: 'dev_1', device: { id: 'd1', name: 'Runner', kind: 'runner' }, workspace: { id: 'w1', name: 'Ada' } }

  it('asks until approved, slower when told to, and goes on through a server that is away', async () => {
    const { aether, asked } = pairingSite([
      pending(),
      new TypeError('fetch failed'),
      Response.json({ message: 'Restarting' }, { status: 503 }),
      Response.json({ code: 'SLOW_DOWN', message: 'Slower' }, { status: 429 }),
      Response.json({ data: paired }),
    ])
    const troubles: (string | null)[] = []
    const answer = await waitForApproval(
      aether,
      { pairingId: 'p1', pollSecret: 's', interval: 0.01, expiresAt: Date.now() + 60_000 },
      { onTrouble: (trouble) => troubles.push(trouble?.code ?? trouble?.message ?? null) },
    )
    expect(answer).toEqual(paired)
    expect(asked).toHaveLength(5)
    expect(troubles).toEqual([null, 'UNREACHABLE', 'Restarting', null, null])
    // After SLOW_DOWN, 5 s more between questions.
    expect(asked[4]! - asked[3]!).toBeGreaterThanOrEqual(5_000)
  }, 30_000)

  it('drops an approval that comes back after the pairing was stopped, and checks what the server answered', async () => {
    const stop = new AbortController()
    let answer: ((response: Response) => void) | null = null
    const slow = createAetherClient({
      server: 'http://aether.test',
      fetch: () =>
        new Promise<Response>((resolve) => {
          answer = resolve
        }),
    })
    const waiting = waitForApproval(
      slow,
      { pairingId: 'p1', pollSecret: 's', interval: 0.01, expiresAt: Date.now() + 60_000 },
      {
        signal: stop.signal,
      },
    )
    await expect.poll(() => answer).not.toBeNull()
    stop.abort(new Error('cancelled in the panel'))
    answer!(Response.json({ data: paired }))
    await expect(waiting).rejects.toThrow('cancelled in the panel')

    const odd = pairingSite([Response.json({ data: { ...paired, token: '' } })])
    await expect(
      waitForApproval(odd.aether, { pairingId: 'p1', pollSecret: 's', interval: 0.01, expiresAt: Date.now() + 60_000 }),
    ).rejects.toMatchObject({ code: 'UNEXPECTED_ANSWER' })
    const noInterval = createAetherClient({
      server: 'http://aether.test',
      fetch: () =>
        Promise.resolve(
          Response.json(
            {
              data: {
                pairingId: 'p',
                userCode: 'ABCD-2345',
                pollSecret: 's',
                verificationUrl: 'https://a.example/connect',
                expiresIn: 600,
              },
            },
            { status: 201 },
          ),
        ),
    })
    await expect(startPairing(noInterval, { name: 'x', kind: 'runner', version: '1' })).rejects.toMatchObject({ code: 'UNEXPECTED_ANSWER' })
  })

  it('ends with PairingEndedError when declined or expired, and throws other refusals', async () => {
    const declined = pairingSite([Response.json({ code: 'PAIRING_DENIED', message: 'Denied' }, { status: 410 })])
    const pairing = { pairingId: 'p1', pollSecret: 's', interval: 0.01, expiresAt: Date.now() + 60_000 }
    await expect(waitForApproval(declined.aether, pairing)).rejects.toEqual(new PairingEndedError('denied'))
    const expired = pairingSite([pending()])
    await expect(waitForApproval(expired.aether, pairing)).rejects.toEqual(new PairingEndedError('expired'))
    const wrong = pairingSite([Response.json({ code: 'UNAUTHORIZED', message: 'Wrong secret' }, { status: 401 })])
    await expect(waitForApproval(wrong.aether, pairing)).rejects.toMatchObject({ status: 401, message: 'Wrong secret' })
    const stop = new AbortController()
    stop.abort(new Error('stopped'))
    await expect(waitForApproval(pairingSite([]).aether, pairing, { signal: stop.signal })).rejects.toThrow('stopped')
  })
})

describe('verifyWebhook', () => {
  const body = JSON.stringify({ type: 'run.succeeded', timestamp: '2026-12-04T10:00:00.000Z', workspaceId: 'w1', data: { id: 'r1' } })
  const now = new Date('2026-12-04T10:00:00.000Z')

  it('answers a message the server signed, and one signed with either secret during a rotation (README example 2)', async () => {
    const secret = newWebhookSecret()
    const headers = signedHeaders(secret, newMessageId(), body, now)
    expect(await verifyWebhook(secret, headers, body, now.getTime())).toMatchObject({ type: 'run.succeeded', data: { id: 'r1' } })
    expect(await verifyWebhook(secret, new Headers(headers), body, now.getTime() + 60_000)).toMatchObject({ workspaceId: 'w1' })
    const rotated = signedHeaders([newWebhookSecret(), secret], newMessageId(), body, now)
    expect(await verifyWebhook(secret, rotated, body, now.getTime())).toMatchObject({ type: 'run.succeeded' })
  })

  it('checks the bytes as sent (a character split between chunks), and headers in any case', async () => {
    const secret = newWebhookSecret()
    const text = JSON.stringify({ type: 'run.succeeded', timestamp: now.toISOString(), workspaceId: 'w1', data: { name: 'Zoë 🚀' } })
    const headers = signedHeaders(secret, newMessageId(), text, now)
    const bytes = new TextEncoder().encode(text)
    expect(await verifyWebhook(secret, headers, bytes, now.getTime())).toMatchObject({ data: { name: 'Zoë 🚀' } })
    const shouted = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]))
    expect(await verifyWebhook(secret, shouted, text, now.getTime())).toMatchObject({ workspaceId: 'w1' })
    // Chunks decoded one by one break the emoji, and the signature with it.
    const split = bytes.indexOf(0xf0) + 2
    const mangled = new TextDecoder().decode(bytes.slice(0, split)) + new TextDecoder().decode(bytes.slice(split))
    await expect(verifyWebhook(secret, headers, mangled, now.getTime())).rejects.toBeInstanceOf(WebhookVerificationError)
    await expect(verifyWebhook('whsec_', headers, text, now.getTime())).rejects.toThrow('The secret is not a signing secret')
  })

  it('refuses a changed body, another secret, an old or future timestamp, and missing headers', async () => {
    const secret = newWebhookSecret()
    const headers = signedHeaders(secret, newMessageId(), body, now)
    const refused = (promise: Promise<unknown>) => expect(promise).rejects.toBeInstanceOf(WebhookVerificationError)
    await refused(verifyWebhook(secret, headers, body.replace('r1', 'r2'), now.getTime()))
    await refused(verifyWebhook(newWebhookSecret(), headers, body, now.getTime()))
    await refused(verifyWebhook(secret, headers, body, now.getTime() + 6 * 60_000))
    await refused(verifyWebhook(secret, headers, body, now.getTime() - 6 * 60_000))
    await refused(verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, body, now.getTime()))
    await refused(verifyWebhook(secret, { ...headers, 'webhook-signature': 'v1,not base64!' }, body, now.getTime()))
  })
})

describe('the README', () => {
  it('shows the three examples that `npm run typecheck` compiles (sdk/examples)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    const example = (file: string) => readFileSync(new URL(`../examples/${file}`, import.meta.url), 'utf8')
    for (const file of ['run-and-read.ts', 'verify-webhook.ts', 'trigger-url.ts'])
      expect(readme).toContain(`\`\`\`ts\n${example(file)}\`\`\``)
  })
})
