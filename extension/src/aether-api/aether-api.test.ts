import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PairingEndedError } from '#sdk'
import { ApiError, noteRateLimit, requestsLeft, serverAddress, TokenRefusedError } from './api-client.ts'
import { listAutomations, saveAutomation } from './automations-api.ts'
import { deviceName } from './device-name.ts'
import { connectionWhenApproved, disconnectDevice, startPairing } from './pairing-api.ts'
import { uploadStepPicture } from './runs-api.ts'

// The extension's side of the device pairing and automations API (issue 17), against a server on
// 127.0.0.1 that answers as the contract says, one answer per request, in the order queued.

type Answer = { status: number; body: unknown; headers?: Record<string, string> }
const answers: Answer[] = []
const requests: { method: string; url: string; authorization?: string; type?: string; cookie?: string; body: unknown }[] = []
let url = ''
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    const bytes = Buffer.concat(chunks)
    const type = request.headers['content-type']
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
      type,
      cookie: request.headers.cookie,
      body: !bytes.length ? null : type === 'application/json' ? JSON.parse(bytes.toString()) : [...bytes],
    })
    const answer = answers.shift() ?? { status: 500, body: { message: 'No answer queued' } }
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body))
  })
})

beforeAll(async () => {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const started = (overrides: Record<string, unknown> = {}) => ({
  status: 201,
  body: {
    data: {
      pairingId: 'pair_1',
      userCode: 'ABCD-2345',
      pollSecret: 'secret_1',
      verificationUrl: `${url}/connect?code=ABCD-2345`,
      expiresIn: 600,
      interval: 3,
      ...overrides,
    },
  },
})
const approved = {
  status: 200,
  body: {
    data: { token: 'dev_abc', device: { id: 'dev_1', name: 'Chrome on Linux' }, workspace: { id: 'ws_1', name: 'Ada’s workspace' } },
  },
}

describe('pairing this browser', () => {
  it('asks for a code with the browser’s name, kind and version, then waits until the member approves', async () => {
    answers.push(started())
    requests.length = 0
    const pairing = await startPairing(url, { name: 'Chrome on Linux', version: '0.1.0' }, 1_000)
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/devices/pairings',
      body: { name: 'Chrome on Linux', kind: 'extension', version: '0.1.0' },
    })
    expect(pairing).toMatchObject({ pairingId: 'pair_1', userCode: 'ABCD-2345', expiresAt: 601_000, intervalMs: 3_000 })

    answers.push({ status: 400, body: { code: 'PAIRING_PENDING', message: 'Waiting for approval' } }, approved)
    const troubles: unknown[] = []
    const connection = await connectionWhenApproved(
      { ...pairing, intervalMs: 10, expiresAt: Date.now() + 60_000 },
      { onTrouble: (trouble) => troubles.push(trouble) },
    )
    expect(connection).toEqual({
      serverUrl: url,
      token: 'dev_abc',
      device: { id: 'dev_1', name: 'Chrome on Linux' },
      workspace: { id: 'ws_1', name: 'Ada’s workspace' },
      // The private half of the key pair made for this pairing stays here; the public half went with the poll.
      privateKey: pairing.keys?.privateKey,
    })
    expect(troubles).toEqual([null, null])
    expect(pairing.keys?.privateKey).toMatchObject({ kty: 'EC', crv: 'P-256', d: expect.any(String) })
    expect(requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/devices/pairings/pair_1/token',
      body: { pollSecret: 'secret_1', publicKey: pairing.keys?.publicKey },
    })
    expect(requests.at(-1)?.authorization).toBeUndefined()
  })

  it('tells an expired code from a declined one, goes on through the rate limit, and passes other errors on', async () => {
    answers.push(started())
    const pairing = { ...(await startPairing(url, { name: 'Chrome on Linux', version: '0.1.0' })), intervalMs: 10 }
    answers.push({ status: 410, body: { code: 'PAIRING_EXPIRED', message: 'Expired' } })
    await expect(connectionWhenApproved(pairing)).rejects.toEqual(new PairingEndedError('expired'))
    answers.push(
      { status: 429, body: { code: 'RATE_LIMITED', message: 'Too many requests' } },
      { status: 410, body: { code: 'PAIRING_DENIED', message: 'Denied' } },
    )
    const troubles: unknown[] = []
    await expect(connectionWhenApproved(pairing, { onTrouble: (trouble) => troubles.push(trouble) })).rejects.toEqual(
      new PairingEndedError('denied'),
    )
    expect(troubles).toEqual([expect.objectContaining({ status: 429, message: 'Too many requests' }), null])
    answers.push({ status: 401, body: { code: 'UNAUTHORIZED', message: 'Wrong secret' } })
    await expect(connectionWhenApproved(pairing)).rejects.toMatchObject({ status: 401, message: 'Wrong secret' })
  })

  it('refuses a pairing answer that is not the contract’s', async () => {
    answers.push(started({ verificationUrl: 'javascript:alert(1)' }))
    await expect(startPairing(url, { name: 'x', version: '0.1.0' })).rejects.toBeInstanceOf(ApiError)
  })
})

describe('the workspace’s automations', () => {
  const connection = () => ({
    serverUrl: url,
    token: 'dev_abc',
    device: { id: 'dev_1', name: 'Chrome' },
    workspace: { id: 'ws_1', name: 'W' },
  })

  it('lists and saves them with the device’s credential', async () => {
    answers.push({
      status: 200,
      body: {
        data: [
          {
            id: 'a1',
            name: 'Order socks',
            steps: [
              { type: 'navigate', url: 'https://shop.example/search?q={{input.term}}' },
              { type: 'type', target: [{ by: 'label', text: 'Size' }], text: '{{input.size}} {{input.term}}' },
            ],
            updatedAt: '2026-12-01T10:00:00.000Z',
            schedule: null,
            extra: true,
          },
          {
            id: 'a3',
            name: 'Morning check',
            steps: [{}],
            updatedAt: '2026-12-01T09:00:00.000Z',
            schedule: { kind: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri'], time: '09:00', timeZone: 'Europe/Berlin', paused: true },
          },
        ],
        total: 2,
        page: 1,
        limit: 100,
      },
    })
    expect(await listAutomations(connection())).toEqual([
      // The inputs its steps ask for, once each, in order: the panel asks for them before a run.
      {
        id: 'a1',
        name: 'Order socks',
        stepCount: 2,
        updatedAt: '2026-12-01T10:00:00.000Z',
        schedule: null,
        inputNames: ['term', 'size'],
      },
      // The schedule in words, as the website says it (docs/decisions/036).
      {
        id: 'a3',
        name: 'Morning check',
        stepCount: 1,
        updatedAt: '2026-12-01T09:00:00.000Z',
        schedule: 'Weekdays at 09:00, Europe/Berlin (paused)',
        inputNames: [],
      },
    ])
    expect(requests.at(-1)).toMatchObject({ method: 'GET', url: '/api/automations?limit=100', authorization: 'Bearer dev_abc' })

    const steps = [{ type: 'navigate' as const, url: 'https://shop.example/' }]
    answers.push({ status: 201, body: { data: { id: 'a2', name: 'Visit the shop', steps, updatedAt: '2026-12-01T11:00:00.000Z' } } })
    expect(await saveAutomation(connection(), { name: 'Visit the shop', steps })).toMatchObject({ id: 'a2', stepCount: 1 })
    expect(requests.at(-1)).toMatchObject({ method: 'POST', url: '/api/automations', body: { name: 'Visit the shop', steps } })
  })

  it('says the browser was disconnected when the server refuses its credential, and shows the server’s own messages', async () => {
    answers.push({
      status: 401,
      body: { code: 'UNAUTHORIZED', message: 'Sign in first' },
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    })
    await expect(listAutomations(connection())).rejects.toBeInstanceOf(TokenRefusedError)
    answers.push({ status: 400, body: { code: 'VALIDATION_ERROR', message: 'Step 2 (click): element is required' } })
    await expect(saveAutomation(connection(), { name: 'x', steps: [] })).rejects.toMatchObject({
      status: 400,
      message: 'Step 2 (click): element is required',
    })
    await expect(listAutomations({ ...connection(), serverUrl: 'http://127.0.0.1:9' })).rejects.toMatchObject({ status: 0 })
  })
})

describe('a run’s reports', () => {
  const connection = { serverUrl: '', token: 'dev_abc', device: { id: 'dev_1', name: 'Chrome' }, workspace: { id: 'ws_1', name: 'W' } }

  it('uploads a step’s picture as JPEG bytes and answers its name; the rate limit each answer tells is kept', async () => {
    answers.push({
      status: 201,
      body: { data: { name: 'after step 1', file: 'shot-2.jpg' } },
      headers: { 'RateLimit-Remaining': '41', 'RateLimit-Reset': '60' },
    })
    const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' })
    expect(await uploadStepPicture({ ...connection, serverUrl: url }, 'run-1', 1, 2, jpeg)).toBe('shot-2.jpg')
    expect(requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/runs/run-1/screenshots?step=1&shot=2',
      type: 'image/jpeg',
      authorization: 'Bearer dev_abc',
      body: [0xff, 0xd8, 0xff, 0xe0],
    })
    expect(requestsLeft()).toBe(41)
  })

  it('disconnects this browser on the server, and says so when the server had done it already', async () => {
    answers.push({ status: 200, body: { data: { ok: true } } })
    expect(await disconnectDevice({ ...connection, serverUrl: url })).toMatch(/^Disconnected: “Chrome” is removed/)
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/devices/me', authorization: 'Bearer dev_abc' })
    answers.push({
      status: 401,
      body: { code: 'UNAUTHORIZED', message: 'Sign in first' },
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    })
    expect(await disconnectDevice({ ...connection, serverUrl: url })).toBe(
      'Disconnected: the server had disconnected this browser already.',
    )
  })
})

describe('small parts', () => {
  it('keeps a server address without its trailing slash, and refuses what is not one', () => {
    expect(serverAddress(' https://aether.example.com/ ')).toBe('https://aether.example.com')
    expect(serverAddress('http://intranet:8080/aether/')).toBe('http://intranet:8080/aether')
    expect(serverAddress('aether.example.com')).toBeNull()
    expect(serverAddress('javascript:alert(1)')).toBeNull()
  })

  it('names the browser for the device list', () => {
    const linuxChrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36'
    expect(deviceName({ userAgent: linuxChrome, brands: [{ brand: 'Chromium' }, { brand: 'Google Chrome' }] })).toBe('Chrome on Linux')
    expect(deviceName({ userAgent: linuxChrome, brands: [{ brand: 'Chromium' }, { brand: 'Not_A Brand' }] })).toBe('Chromium on Linux')
    expect(deviceName({ userAgent: linuxChrome.replace('X11; Linux x86_64', 'Windows NT 10.0; Win64; x64') })).toBe('Chrome on Windows')
    expect(
      deviceName({ userAgent: `${linuxChrome} Edg/142.0.0.0`.replace('X11; Linux x86_64', 'Macintosh; Intel Mac OS X 10_15_7') }),
    ).toBe('Edge on macOS')
  })
})

describe('the API rate limit as the answers tell it', () => {
  it('keeps the requests left until the window the server named ends', () => {
    const now = Date.now()
    noteRateLimit(new Response(null, { headers: { 'RateLimit-Remaining': '7', 'RateLimit-Reset': '30' } }))
    expect(requestsLeft(now)).toBe(7)
    expect(requestsLeft(now + 31_000)).toBeNull()
    // An answer without the headers changes nothing.
    noteRateLimit(new Response(null))
    expect(requestsLeft(now)).toBe(7)
  })
})
