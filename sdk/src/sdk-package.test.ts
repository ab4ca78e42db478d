import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../server/testing/create-test-app.ts'

// The published SDK (sdk/README.md): generated from the routes, packed as the build packs it
// (/downloads/aether-sdk.tgz), installed with npm into an empty project as a member would, then
// type-checked and run there against a real server: no clone of this repository.

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')
const tsc = path.join(root, 'node_modules/.bin/tsc')
let t: TestApp
let server: ReturnType<typeof serve>
let url: string
let folder: string
let project: string

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'aether-sdk-install-'))
  await run(path.join(root, 'node_modules/.bin/tsx'), ['scripts/sdk-generate.ts'], { cwd: root })
  await run(process.execPath, ['scripts/publish-sdk.js', path.join(folder, 'downloads')], { cwd: root })
  const tarball = path.join(folder, 'downloads', 'aether-sdk.tgz')
  expect((await stat(tarball)).size).toBeGreaterThan(10_000)
  project = path.join(folder, 'project')
  await mkdir(project)
  await writeFile(path.join(project, 'package.json'), '{ "name": "a-members-project", "private": true, "type": "module" }\n')
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, timeout: 120_000 })
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

/** Type-checks a member's file against the installed package (its own declarations, not skipped), and compiles it. */
const compile = (file: string, emit = false) =>
  run(
    tsc,
    [
      ...(emit ? ['--outDir', 'out'] : ['--noEmit']),
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2023,dom',
      file,
    ],
    { cwd: project },
  )

describe('the SDK package', () => {
  it('is generated from the very document a server serves at /api/openapi.json', async () => {
    const served = (await (await fetch(`${url}/api/openapi.json`)).json()) as unknown
    expect(JSON.parse(await readFile(path.join(root, 'sdk/openapi.json'), 'utf8'))).toEqual(served)
  })

  it('installs from its tarball with its types, and its client works against the site', async () => {
    await writeFile(
      path.join(project, 'plans.ts'),
      [
        "import { ApiError, createAetherClient, dataOf } from '@aether/sdk'",
        `const aether = createAetherClient({ server: '${url}' })`,
        "const plans = await dataOf(aether.GET('/plans'))",
        "const refused = await dataOf(aether.GET('/automations')).catch((error: unknown) => error)",
        'console.log(JSON.stringify({ plans: plans.map((plan) => plan.name), refused: refused instanceof ApiError ? refused.status : null }))',
        '',
      ].join('\n'),
    )
    await compile('plans.ts', true)
    const { stdout } = await run(process.execPath, [path.join(project, 'out', 'plans.js')], { cwd: project })
    expect(JSON.parse(stdout)).toEqual({ plans: ['Free', 'Pro', 'Business'], refused: 401 })
  })

  it('refuses, at compile time, a path the API does not have and a body it does not take', async () => {
    await writeFile(
      path.join(project, 'wrong.ts'),
      [
        "import { createAetherClient } from '@aether/sdk'",
        "const aether = createAetherClient({ server: 'https://aether.example.com' })",
        "await aether.GET('/no-such-route')",
        "await aether.POST('/automations', { body: { name: 'No steps' } })",
        '',
      ].join('\n'),
    )
    const failed = await compile('wrong.ts').then(
      () => null,
      (error: { stdout: string }) => error.stdout,
    )
    expect(failed).toMatch(/wrong\.ts\(3,\d+\): error TS/)
    expect(failed).toMatch(/wrong\.ts\(4,\d+\): error TS\d+: .*Property 'steps' is missing/s)
  })
})
