import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { main } from './cli.ts'
import { readConfig, writeConfig } from './config-store.ts'

// The runner's connection as a member meets it (issue 30): `pair` against the site's address
// (a page's address works too), `forget` that frees the device's slot on the server, `serve` that
// stops with what to do once its device is disconnected, and errors that name the address tried.
// The commands run as `main` does for the real binary, against the app on a real port.

let t: TestApp
let server: ReturnType<typeof serve>
let url: string
let member: Awaited<ReturnType<TestApp['signUp']>>
let folder: string
let printed: string[]

beforeAll(async () => {
  t = await createTestApp()
  member = await t.signUp()
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await t?.close()
})
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'aether-runner-cli-'))
  vi.stubEnv('AETHER_RUNNER_CONFIG', path.join(folder, 'config.json'))
  printed = []
  // What the runner prints; a pairing code it shows is approved as the member would on /connect.
  vi.spyOn(console, 'log').mockImplementation((line: string) => {
    printed.push(line)
    const code = /approve the code ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(line)?.[1]
    if (code)
      void t.services.pairings.approve(code, { id: member.id, email: member.email, twoFactorEnabled: false }, member.id, t.freshIp())
  })
})
afterEach(async () => {
  vi.mocked(console.log).mockRestore()
  vi.unstubAllEnvs()
  await rm(folder, { recursive: true, force: true })
})

const configFile = () => path.join(folder, 'config.json')

describe('the runner’s connection', () => {
  it('pairs with a page’s address as the site’s, and forget revokes it on the server: the slot is free at once', async () => {
    expect(await main(['pair', '--server', `${url}/dashboard/settings`, '--name', 'Runner in the office'])).toBe(0)
    const config = await readConfig(configFile())
    expect(config).toMatchObject({ server: url, device: { name: 'Runner in the office' } })
    expect(await t.services.pairings.usage(member.id)).toEqual({ taken: 1, limit: 1 })

    expect(await main(['forget'])).toBe(0)
    expect(printed.at(-1)).toBe(`Disconnected: “Runner in the office” is revoked on ${url} and its slot is free.`)
    expect(await readConfig(configFile())).toBeNull()
    expect(await t.services.pairings.usage(member.id)).toEqual({ taken: 0, limit: 1 })
  })

  it('serve stops with what to do once its device is disconnected on the website', async () => {
    expect(await main(['pair', '--server', url])).toBe(0)
    const config = await readConfig(configFile())
    await t.services.devices.revokeAllOf(member.id)
    await expect(main(['serve', '--every', '1', '--chromium', '/usr/bin/chromium'])).rejects.toThrow(
      `This runner is no longer connected to ${url}: it was disconnected (on the website in Settings -> Devices, or by \`forget\`), or its member left the workspace. Connect it again: aether-runner pair --server ${url}`,
    )
    expect(printed.filter((line) => line.startsWith('Asking for runs failed'))).toEqual([])
    // Forgetting a disconnected runner says so, and forgets it.
    expect(config).not.toBeNull()
    expect(await main(['forget'])).toBe(0)
    expect(printed.at(-1)).toBe('Forgotten: the server had disconnected this runner already.')
  })

  it('names the address it tried and what to do when the server address is wrong', async () => {
    await expect(main(['pair', '--server', 'aether.example.com'])).rejects.toThrow(
      'aether.example.com is not a server address: start it with https:// or http:// (e.g. https://aether.example.com).',
    )
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise((resolve) => closed.close(resolve))
    await expect(main(['pair', '--server', closedUrl])).rejects.toThrow(
      `Could not reach the Aether server at ${closedUrl} (ECONNREFUSED). Check the address, and that the server is running and this machine can reach it.`,
    )

    const other: Server = createServer((_request, response) =>
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'),
    )
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
    try {
      await expect(main(['pair', '--server', otherUrl])).rejects.toThrow(
        `${otherUrl}/api/devices/pairings answered 404, not as an Aether server does. Check the address: the site's own address, e.g. https://aether.example.com.`,
      )
    } finally {
      await new Promise((resolve) => other.close(resolve))
    }
  })

  it('serve says a trouble once while it lasts, and again only when it changes', async () => {
    // A server that is in maintenance for four asks, then one answering 502, then disconnects the device.
    let asks = 0
    const flaky: Server = createServer((request, response) => {
      if (request.url !== '/api/runs/claim') return void response.writeHead(404).end()
      asks++
      const [status, message] =
        asks <= 4 ? [503, 'Down for maintenance.'] : asks <= 6 ? [502, 'Bad gateway.'] : [401, 'You must be signed in.']
      // A refused token is said as the server says it (RFC 6750's invalid_token).
      const refused = status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {}
      response.writeHead(status, { 'content-type': 'application/json', ...refused }).end(JSON.stringify({ code: 'X', message }))
    })
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve))
    const flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`
    const troubles: string[] = []
    // The suite's set-up spies on console.error (failing a test that prints one): here the runner's troubles are expected.
    vi.mocked(console.error).mockImplementation((line: string) => void troubles.push(line))
    try {
      await writeConfig(configFile(), {
        server: flakyUrl,
        token: `dev_${'a'.repeat(43)}`,
        device: { id: '00000000-0000-4000-8000-000000000001', name: 'Flaky runner' },
        workspace: { id: member.id, name: 'Personal' },
      })
      await expect(main(['serve', '--every', '1', '--chromium', '/usr/bin/chromium'])).rejects.toThrow(
        /^This runner is no longer connected to /,
      )
      expect(asks).toBe(7)
      expect(troubles).toEqual([
        'Asking for runs failed: Down for maintenance. (asking again every 1 s)',
        'Asking for runs failed: Bad gateway. (asking again every 1 s)',
      ])
    } finally {
      await new Promise((resolve) => flaky.close(resolve))
    }
  }, 20_000)
})
