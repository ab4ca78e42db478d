import { execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startSignInSite, storeSignInSecrets, type SignInSite } from '#server/testing/sign-in-site.ts'

// The installable runner (issue 30): the package the build publishes at /downloads/aether-runner.tgz,
// installed with npm into an empty folder as a member would, and run as a child process: only
// Node, its one dependency (Playwright) and the bundled JavaScript, no clone of this repository.

const run = promisify(execFile)
let t: TestApp
let server: ReturnType<typeof serve>
let url: string
let folder: string
let bin: string
let site: SignInSite
let member: Awaited<ReturnType<TestApp['signUp']>>

const USER = 'dee@shop.example'
const PASSWORD = 'runner-vault-password-7'
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'aether-runner-install-'))
  await run(process.execPath, ['scripts/publish-runner.js', path.join(folder, 'downloads')])
  const tarball = path.join(folder, 'downloads', 'aether-runner.tgz')
  expect((await stat(tarball)).size).toBeGreaterThan(10_000)
  const project = path.join(folder, 'machine')
  await mkdir(project)
  await writeFile(path.join(project, 'package.json'), '{ "name": "a-members-machine", "private": true }\n')
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, timeout: 120_000 })
  bin = path.join(project, 'node_modules', '.bin', 'aether-runner')
  t = await createTestApp()
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  site = await startSignInSite({ user: USER, password: PASSWORD, totpSecret: TOTP_SECRET })
}, 180_000)
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await t?.close()
  await site?.close()
  if (folder) await rm(folder, { recursive: true, force: true })
})

/** Runs the installed command; its exit code and what it printed. `onLine` sees each line as it comes. */
function runner(args: string[], onLine?: (line: string) => void): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { env: { ...process.env, AETHER_RUNNER_CONFIG: path.join(folder, 'config.json') } })
    let out = ''
    const take = (chunk: Buffer) => {
      out += chunk.toString()
      for (const line of chunk.toString().split('\n')) if (line) onLine?.(line)
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    child.on('close', (code) => resolve({ code, out }))
  })
}

describe('the runner as an installed package', () => {
  it('shows its commands, and names what is wrong with a server address', async () => {
    const help = await runner(['--help'])
    expect(help.code).toBe(0)
    expect(help.out).toContain('pair --server <url> [--name <name>]')
    const wrong = await runner(['pair', '--server', 'aether.example.com'])
    expect(wrong.code).toBe(1)
    expect(wrong.out.trim()).toBe(
      'aether.example.com is not a server address: start it with https:// or http:// (e.g. https://aether.example.com).',
    )
  })

  it('pairs with the server once the member approves its code, and says where it is connected', async () => {
    member = await t.signUp()
    const paired = await runner(['pair', '--server', url, '--name', 'Installed runner'], (line) => {
      const code = /approve the code ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(line)?.[1]
      if (code)
        void t.services.pairings.approve(code, { id: member.id, email: member.email, twoFactorEnabled: false }, member.id, t.freshIp())
    })
    expect(paired.code, paired.out).toBe(0)
    expect(paired.out).toContain('Connected as “Installed runner” to the workspace')
    const status = await runner(['status'])
    expect(status.out.trim()).toMatch(new RegExp(`^Connected to ${url} as “Installed runner”, in the workspace .+\\.$`))
  })

  it('runs a recorded sign-in with vault values sealed to it, once the member allows them, and writes none down', async () => {
    await storeSignInSecrets(t, member.token, site, { user: USER, password: PASSWORD, totpSecret: TOTP_SECRET })
    const created = await t.request('/api/automations', {
      token: member.token,
      body: {
        name: 'Shop orders',
        steps: [
          { type: 'navigate', url: `${site.url}/account` },
          { type: 'click', target: [{ by: 'role', role: 'link', name: 'Sign in' }] },
          { type: 'type', target: [{ by: 'label', text: 'User name' }], text: '{{secrets.shop_user}}' },
          { type: 'type', target: [{ by: 'label', text: 'Password' }], text: '{{secrets.shop_password}}' },
          { type: 'click', target: [{ by: 'role', role: 'button', name: 'Sign in' }] },
          { type: 'type', target: [{ by: 'label', text: 'One-time code' }], text: '{{totp.shop_totp}}' },
          { type: 'click', target: [{ by: 'role', role: 'button', name: 'Verify' }] },
          { type: 'assertText', text: 'Your orders' },
        ],
      },
    })
    const automationId = ((await created.json()) as { data: { id: string } }).data.id

    const refused = await runner(['run', automationId, '--chromium', '/usr/bin/chromium'])
    expect(refused.code).toBe(1)
    expect(refused.out).toContain('Vault values do not reach “Installed runner” until you allow them for it in Settings -> Devices')
    expect(site.signIns).toBe(0)

    const listed = (await (await t.request('/api/devices', { token: member.token })).json()) as {
      data: { id: string; holdsKey: boolean }[]
    }
    expect(listed.data[0]?.holdsKey).toBe(true)
    const allowed = await t.request(`/api/devices/${listed.data[0]?.id}`, {
      method: 'PATCH',
      token: member.token,
      body: { vaultValues: true },
    })
    expect(allowed.status).toBe(200)

    const signedIn = await runner(['run', automationId, '--chromium', '/usr/bin/chromium'])
    expect(signedIn.code, signedIn.out).toBe(0)
    expect(site.signIns).toBe(1)
    expect(site.posted[0]).toEqual({ user: USER, password: PASSWORD })
    const runId = /\/dashboard\/runs\/([0-9a-f-]{36})/.exec(signedIn.out)?.[1]
    const run = await (await t.request(`/api/runs/${runId}`, { token: member.token })).text()
    expect(run).toContain('"status":"succeeded"')
    const config = await readFile(path.join(folder, 'config.json'), 'utf8')
    for (const [place, text] of Object.entries({ output: signedIn.out, run, config })) {
      expect(text.includes(PASSWORD) || text.includes(USER), place).toBe(false)
    }
  }, 120_000)

  it('serve stops with what to do once the member disconnects it on the website', async () => {
    const listed = (await (await t.request('/api/devices', { token: member.token })).json()) as { data: { id: string }[] }
    const revoked = await t.request(`/api/devices/${listed.data[0]?.id}`, { method: 'DELETE', token: member.token })
    expect(revoked.status).toBe(200)
    const served = await runner(['serve', '--every', '1', '--chromium', '/usr/bin/chromium'])
    expect(served.code).toBe(1)
    expect(served.out).toContain(`This runner is no longer connected to ${url}: it was disconnected`)
    expect(served.out).toContain(`Connect it again: aether-runner pair --server ${url}`)
  }, 60_000)
})
