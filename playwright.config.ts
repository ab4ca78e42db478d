import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { ADMIN, BASE_URL, MEMBER, PORT } from './tests/e2e/credentials.ts'

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
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node server.js',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE_URL,
      DATA_DIR: dataDir,
      AUTH_SECRET: authSecret,
      SEED_DEMO: 'true',
      SEED_ADMIN_EMAIL: ADMIN.email,
      SEED_ADMIN_PASSWORD: ADMIN.password,
      SEED_MEMBER_EMAIL: MEMBER.email,
      SEED_MEMBER_PASSWORD: MEMBER.password,
      LOG_LEVEL: 'warn',
    },
  },
})
