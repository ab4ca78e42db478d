import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LookupAll } from '#server/browser/target-guard.ts'
import { sendWebhook, webhookUrlRefusal } from './webhook-sender.ts'

let server: Server
let port: number
let hits = 0

beforeAll(async () => {
  server = createServer((request, response) => {
    hits++
    if (request.url === '/moved') response.writeHead(302, { location: 'http://127.0.0.1/elsewhere' }).end()
    else response.writeHead(200).end('ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

const message = { headers: { 'webhook-id': 'msg_1' }, body: '{}' }

describe('the webhook sender', () => {
  it('checks the address again when it delivers: a name that now resolves to a private address is refused (DNS rebinding)', async () => {
    let answer = '93.184.215.14'
    const lookup: LookupAll = () => Promise.resolve([{ address: answer, family: 4 }])
    const config = { privateTargets: 'none' as const, lookup, timeoutMs: 2_000 }
    // Saved while the name pointed somewhere public…
    expect(await webhookUrlRefusal(config, `http://hooks.example.com:${port}/in`)).toBeNull()
    // …then the name is pointed at this machine.
    answer = '127.0.0.1'
    const before = hits
    const result = await sendWebhook(config, { url: `http://hooks.example.com:${port}/in`, ...message })
    expect(result).toMatchObject({ ok: false, statusCode: null })
    expect(result.error).toContain('the address 127.0.0.1 (hooks.example.com) is private')
    expect(hits).toBe(before)
  })

  it('connects to the very address it checked, and does not follow redirects', async () => {
    const lookup: LookupAll = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }])
    const config = { privateTargets: 'loopback' as const, lookup, timeoutMs: 2_000 }
    const ok = await sendWebhook(config, { url: `http://receiver.test:${port}/in`, ...message })
    expect(ok).toMatchObject({ ok: true, statusCode: 200, error: null })
    const before = hits
    const moved = await sendWebhook(config, { url: `http://receiver.test:${port}/moved`, ...message })
    expect(moved).toMatchObject({ ok: false, statusCode: 302 })
    expect(moved.error).toContain('redirects are not followed')
    expect(hits).toBe(before + 1)
  })

  it('refuses metadata addresses whatever the policy', async () => {
    expect(await webhookUrlRefusal({ privateTargets: 'loopback' }, 'http://169.254.169.254/latest/meta-data')).toContain('metadata')
  })
})
