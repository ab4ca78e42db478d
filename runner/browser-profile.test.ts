import { dataOf } from '#sdk'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaces } from '#server/db/schema/index.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startSignInSite, type SignInSite } from '#server/testing/sign-in-site.ts'
import { runnerClient } from './aether-client.ts'
import { createBrowserProfile } from './browser-profile.ts'
import { pairDevice } from './pairing.ts'
import { runAutomationLocally } from './run-locally.ts'
import { signInWithProfile } from './sign-in.ts'

// The member's own sign-ins on their runner (issue 30): they sign in by hand in a window the
// runner opens (`sign-in --profile`), the session is kept in a profile on their machine, and runs
// with that profile start signed in: no vault value, no password through Aether.

const ACCOUNT = { user: 'ada', password: 'correct horse battery staple', totpSecret: 'JBSWY3DPEHPK3PXP' }
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let t: TestApp
let site: SignInSite
let folder: string
let token = ''
const inProcess = (request: Request) => Promise.resolve(t.app.request(request))
const api = () => runnerClient({ server: 'http://aether.test', token, fetch: inProcess, version: '0.1.0' })

beforeAll(async () => {
  t = await createTestApp()
  site = await startSignInSite(ACCOUNT)
  folder = await mkdtemp(path.join(tmpdir(), 'aether-runner-profile-'))
  const member = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'pro' }).where(eq(workspaces.id, member.id))
  const paired = await pairDevice(
    runnerClient({ server: 'http://aether.test', fetch: inProcess }),
    { name: 'Home PC', version: '0.1.0' },
    (pairing) => {
      void t.services.pairings.approve(
        pairing.userCode,
        { id: member.id, email: member.email, twoFactorEnabled: false },
        member.id,
        t.freshIp(),
      )
    },
  )
  token = paired.token
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
  await t?.close()
  if (folder) await rm(folder, { recursive: true, force: true })
})

describe('a browser profile on the runner', () => {
  it('keeps the session the member signed in with by hand, and runs with it start signed in', async () => {
    const created = await dataOf(
      api().POST('/automations', {
        body: {
          name: 'My orders',
          steps: [
            { type: 'navigate', url: `${site.url}/account` },
            { type: 'extract', target: [{ by: 'css', selector: '.order' }], field: 'order' },
          ],
        },
      }),
    )
    const profile = createBrowserProfile(path.join(folder, 'shop'))
    const signedOut = await runAutomationLocally({
      api: api(),
      automationId: created.id,
      chromiumPath: '/usr/bin/chromium',
      browsers,
      profile,
      limits: { stepTimeoutMs: 2_000 },
    })
    expect(signedOut.status).toBe('failed')
    expect(signedOut.log.map((line) => line.message)).toContain('The browser profile is empty: starting signed out.')

    // The member signs in in the window (here driven by the test), then closes it.
    await signInWithProfile({
      url: `${site.url}/login`,
      chromiumPath: '/usr/bin/chromium',
      profile,
      headless: true,
      onPage: async (page) => {
        await page.getByLabel('User name').fill(ACCOUNT.user)
        await page.getByLabel('Password').fill(ACCOUNT.password)
        await page.getByRole('button', { name: 'Sign in' }).click()
        const code = new TOTP({ secret: Secret.fromBase32(ACCOUNT.totpSecret), digits: 6, period: 30 }).generate()
        await page.getByLabel('One-time code').fill(code)
        await page.getByRole('button', { name: 'Verify' }).click()
        await page.getByText(`Signed in as ${ACCOUNT.user}`).waitFor()
        await page.close()
      },
    })
    expect(site.signIns).toBe(1)
    expect((await stat(profile.file)).mode & 0o777).toBe(0o600)

    const signedIn = await runAutomationLocally({
      api: api(),
      automationId: created.id,
      chromiumPath: '/usr/bin/chromium',
      browsers,
      profile,
    })
    expect(signedIn).toMatchObject({ status: 'succeeded', extracted: [{ order: 'Order 1001: rain jacket' }] })
    expect(signedIn.log.map((line) => line.message)).toContain('Starting with the browser profile of this machine.')
    // Nothing of the session reached the server: the run's log and data are all it has.
    expect(JSON.stringify(signedIn)).not.toContain(ACCOUNT.password)
    expect(site.signIns).toBe(1)
  })
})
