import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ADMIN, MEMBER } from './credentials.ts'

export interface IsolatedServer {
  url: string
  stop: () => Promise<void>
}

async function freePort(): Promise<number> {
  const probe = createServer()
  probe.listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const address = probe.address()
  probe.close()
  if (!address || typeof address === 'string') throw new Error('no free port')
  return address.port
}

/**
 * The same production build on a port and fresh database of its own, with the demo accounts:
 * for tests that fill a per-client limit or need other settings (`env`, e.g. the payment sandbox).
 */
export async function startIsolatedServer(env: Record<string, string> = {}): Promise<IsolatedServer> {
  const port = await freePort()
  const url = `http://localhost:${port}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'aether-e2e-isolated-'))
  const child: ChildProcess = spawn(process.execPath, ['server.js'], {
    cwd: process.cwd(),
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      AUTH_SECRET: randomBytes(32).toString('base64url'),
      SEED_ADMIN_EMAIL: ADMIN.email,
      SEED_ADMIN_PASSWORD: ADMIN.password,
      SEED_MEMBER_EMAIL: MEMBER.email,
      SEED_MEMBER_PASSWORD: MEMBER.password,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      ...env,
    },
  })
  const exited = once(child, 'exit')
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM')
      await exited
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break
    const healthy = await fetch(`${url}/api/health`)
      .then((response) => response.ok)
      .catch(() => false)
    if (healthy) return { url, stop }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await stop()
  throw new Error(`the isolated server on ${url} did not start`)
}
