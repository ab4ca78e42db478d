import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { ADMIN, BASE_URL, MEMBER, PORT, SANDBOX_PORT, SANDBOX_URL } from './tests/e2e/credentials.ts'

// The end-to-end suite runs against the production build (`npm run test:e2e` builds first) on a
// fresh embedded database per run. Playwright loads this file in the runner and again in every
// worker; the runner creates the data folder and secret once and the workers inherit them.
if (!process.env.AETHER_E2E_DATA_DIR) {
  const folder = mkdtempSync(path.join(tmpdir(), 'aether-e2e-'))
  process.env.AETHER_E2E_DATA_DIR = folder
  process.env.AETHER_E2E_AUTH_SECRET = randomBytes(32).toString('base64url')
  // Runs after the web server has been stopped (Playwright tears plugins down last).
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }))
}
const dataDir = process.env.AETHER_E2E_DATA_DIR
const authSecret = process.env.AETHER_E2E_AUTH_SECRET ?? randomBytes(32).toString('base64url')

// CI shares a 2-core machine that has run the suite at a third of its quiet speed: there every
// wait is three times as long. What the tests assert is the same everywhere.
const PATIENCE = process.env.CI ? 3 : 1

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // The machine's network is closed: keep Chromium from calling home.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: 'list',
  timeout: 30_000 * PATIENCE,
  expect: { timeout: 5_000 * PATIENCE },
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    // Recording a trace slows every test by about a third; in CI only a retry records one.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  // Two copies of the production build: the default configuration (no payment provider: the
  // spec's 'Checkout Not Available'), and one with the local payment sandbox for billing.spec.ts.
  webServer: [
    server({ port: PORT, url: BASE_URL, dataDir: path.join(dataDir, 'main') }),
    server({ port: SANDBOX_PORT, url: SANDBOX_URL, dataDir: path.join(dataDir, 'sandbox'), env: { BILLING_SANDBOX: 'true' } }),
  ],
})

function server(options: { port: number; url: string; dataDir: string; env?: Record<string, string> }) {
  return {
    command: 'node server.js',
    url: `${options.url}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    env: {
      NODE_ENV: 'production',
      PORT: String(options.port),
      HOST: '127.0.0.1',
      PUBLIC_URL: options.url,
      DATA_DIR: options.dataDir,
      AUTH_SECRET: authSecret,
      SEED_DEMO: 'true',
      SEED_ADMIN_EMAIL: ADMIN.email,
      SEED_ADMIN_PASSWORD: ADMIN.password,
      SEED_MEMBER_EMAIL: MEMBER.email,
      SEED_MEMBER_PASSWORD: MEMBER.password,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // Tests that create accounts through the API act as distinct clients (tests/e2e/accounts.ts).
      TRUST_PROXY: 'true',
      ...options.env,
    },
  }
}
