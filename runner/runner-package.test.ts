import { execFile, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// The installable runner (issue 30): the package the build publishes at /downloads/aether-runner.tgz,
// installed with npm into an empty folder as a member would, and run as a child process: only
// Node, its one dependency (Playwright) and the bundled JavaScript, no clone of this repository.

const run = promisify(execFile)
let t: TestApp
let server: ReturnType<typeof serve>
let url: string
let folder: string
let bin: string

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
}, 180_000)
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await t?.close()
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
    const member = await t.signUp()
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
})
