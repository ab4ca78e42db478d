import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { adminHeaders, apiToken } from './accounts.ts'
import { expect, gotoHydrated, MEMBER, signIn, test, toasts } from './fixtures.ts'
import { startIsolatedServer, type IsolatedServer } from './isolated-server.ts'

// Outgoing webhooks through the UI (docs/decisions/026): a member on Business adds an endpoint
// (a receiver this test serves on loopback), copies the secret shown once, sends a test event that
// the receiver verifies with the Standard Webhooks library, reads the delivery log and deletes it.
test.describe.configure({ mode: 'serial', timeout: 120_000 })

let server: IsolatedServer
let receiver: Server
let receiverUrl: string
const received: { body: string; headers: Record<string, string> }[] = []

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000)
  receiver = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: incoming.headers as Record<string, string> })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/aether`
  // This server may reach loopback (the test's receiver), as cloud runs there may.
  server = await startIsolatedServer({ RUN_ALLOW_PRIVATE_TARGETS: 'loopback' })
  // Webhooks are part of Business: the admin moves the member there.
  const token = await apiToken(request, MEMBER, server.url)
  const me = await request.get(`${server.url}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })
  const { data } = (await me.json()) as { data: { id: string } }
  const moved = await request.put(`${server.url}/api/users/${data.id}`, {
    data: { plan: 'business' },
    headers: await adminHeaders(request, server.url),
  })
  expect(moved.status(), await moved.text()).toBe(200)
})
test.afterAll(async () => {
  await server?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
})

test('a member adds a webhook endpoint, sends a test event the receiver verifies, reads the log and deletes it', async ({ page }) => {
  await signIn(page, MEMBER, server.url)
  await page.getByRole('link', { name: 'Webhooks' }).click()
  await expect(page).toHaveURL(`${server.url}/workspace/webhooks`)
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()
  await gotoHydrated(page, `${server.url}/workspace/webhooks`)
  await expect(page.getByText('0 of 10 endpoints on the Business plan.')).toBeVisible()

  await page.getByLabel('Endpoint URL').fill(receiverUrl)
  await page.getByLabel('Description').fill('Order system')
  await page.getByLabel(/credits\.low/).check()
  await page.getByRole('button', { name: 'Add Endpoint' }).click()
  await expect(toasts(page).getByText('Endpoint added')).toBeVisible()
  const secret = await page.getByLabel('Signing secret').inputValue()
  expect(secret).toMatch(/^whsec_/)
  await expect(page.getByText('Order system · run.succeeded, run.failed, run.cancelled, run.waiting, credits.low')).toBeVisible()

  await page.getByRole('button', { name: 'Send test event' }).click()
  await expect(toasts(page).getByText('Test event sent')).toBeVisible()
  await expect(toasts(page).getByText(/The receiver answered 204 in \d+ ms\./)).toBeVisible()
  const log = page.getByRole('table', { name: `Deliveries to ${receiverUrl}` })
  await expect(log.getByRole('row').nth(1)).toContainText('webhook.test')
  await expect(log.getByRole('row').nth(1)).toContainText('204')
  expect(received).toHaveLength(1)
  const payload = new Webhook(secret).verify(received[0]?.body ?? '', received[0]?.headers ?? {}) as { type: string }
  expect(payload.type).toBe('webhook.test')

  // Redelivery: the same message id again, logged as attempt 2.
  await log.getByRole('button', { name: 'Redeliver' }).click()
  await expect(toasts(page).getByText('Delivered again')).toBeVisible()
  await expect(log.getByRole('row')).toHaveCount(3)
  expect(received[1]?.headers['webhook-id']).toBe(received[0]?.headers['webhook-id'])

  await page.getByRole('button', { name: `Delete ${receiverUrl}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete this endpoint?' })
  await dialog.getByRole('button', { name: 'Delete Endpoint' }).click()
  await expect(toasts(page).getByText('Endpoint deleted')).toBeVisible()
  await expect(page.getByRole('heading', { name: receiverUrl })).toHaveCount(0)
})
