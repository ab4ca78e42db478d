import type { Page } from '@playwright/test'
import { apiToken, createAccount } from './accounts.ts'
import { SANDBOX_URL } from './credentials.ts'
import { expect, expectNoAxeViolations, gotoHydrated, signIn, test, toasts, type Credentials } from './fixtures.ts'

// Purchases run against the second e2e server, which has the local payment sandbox on: its
// checkout pays by sending signed Paddle webhooks to the server's own endpoint.
test.use({ baseURL: SANDBOX_URL })

const planCard = (page: Page, name: string) =>
  page.locator('#pricing article').filter({ has: page.getByRole('heading', { name, exact: true }) })
const billingPlan = (page: Page, name: string) =>
  page
    .getByRole('region', { name: 'Available Plans' })
    .locator('> div > div')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })

const DATE = String.raw`[A-Z][a-z]{2} \d{1,2}, \d{4}`

/** Checkout for Pro from the pricing section. A member's first subscription starts with a free trial. */
async function checkOutPro(page: Page, { trial }: { trial: boolean }) {
  await gotoHydrated(page, '/#pricing')
  await planCard(page, 'Pro').getByRole('button', { name: 'Choose Pro' }).click()
  await expect(page).toHaveURL(/\/billing\/checkout\?plan=pro$/)
  await expect(page.getByRole('heading', { name: 'Aether Pro' })).toBeVisible()
  const dueToday = page.locator('dt:has-text("Due today") + dd')
  if (trial) {
    await expect(dueToday).toContainText('$0.00')
    await expect(page.getByText(new RegExp(String.raw`^then \$29\.00/month from ${DATE}$`))).toBeVisible()
    await page.getByRole('button', { name: 'Start free trial' }).click()
  } else {
    await expect(dueToday).toHaveText('$29.00')
    await expect(page.getByText(/^then \$29\.00/)).toBeHidden()
    await page.getByRole('button', { name: 'Pay $29.00' }).click()
  }
  await expect(page).toHaveURL('/dashboard')
}

async function buyPro(page: Page, account: Credentials) {
  await signIn(page, account)
  await checkOutPro(page, { trial: true })
}

/** Switch to Free, confirmed, then the sandbox lets the period (or the trial) end now. */
async function switchToFreeNow(page: Page) {
  await gotoHydrated(page, '/billing')
  await billingPlan(page, 'Free').getByRole('button', { name: 'Switch to Free' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Switch to Free' }).click()
  await expect(toasts(page).getByText('Switch to Free scheduled')).toBeVisible()
  await page.getByRole('button', { name: 'End the billing period now' }).click()
  await expect(toasts(page).getByText('Subscription ended')).toBeVisible()
  await expect(billingPlan(page, 'Free').getByRole('button', { name: 'Current Plan' })).toBeDisabled()
}

test.describe('buying a plan in the payment sandbox', () => {
  // Each test is a whole journey (sign-in, checkout, several pages): more than 30 s on a loaded machine.
  test.describe.configure({ timeout: 90_000 })

  test('from pricing to a 14-day free trial on the dashboard, with the $0 start in the billing history', async ({ page, request }) => {
    const account = await createAccount(request, 'buyer', SANDBOX_URL)
    await buyPro(page, account)
    await expect(toasts(page).getByText('Purchase Successful')).toBeVisible()
    await expect(toasts(page).getByText('Thank you for your purchase! Your account will be upgraded shortly.')).toBeVisible()
    const summary = page.getByRole('region', { name: 'Account summary' })
    await expect(summary).toContainText('Pro')
    // The trial comes with the plan's monthly credits, so the member can try it.
    await expect(summary).toContainText('1005')
    await expect(page.getByText('Plan credits')).toBeVisible()

    await page.getByRole('link', { name: 'Billing' }).click()
    await expect(page).toHaveURL('/billing')
    await expect(page.getByText('Trial ends', { exact: true })).toBeVisible()
    await expect(page.getByText('Next renewal')).toBeHidden()
    await expect(page.getByText(new RegExp(String.raw`Free trial of Pro: first charge \$29\.00 on ${DATE}, then monthly\.`))).toBeVisible()
    await expect(page.getByText('Visa ending 4242')).toBeVisible()
    await expect(billingPlan(page, 'Pro').getByRole('button', { name: 'Current Plan' })).toBeDisabled()
    await expect(billingPlan(page, 'Business').getByRole('button', { name: 'Upgrade' })).toBeVisible()
    await expect(billingPlan(page, 'Free').getByRole('button', { name: 'Switch to Free' })).toBeVisible()
    const history = page.getByRole('table', { name: 'Recent payments' })
    await expect(history.getByRole('row')).toHaveCount(2)
    await expect(history).toContainText('$0.00')
    const status = history.locator('[data-status="success"]')
    await expect(status).toHaveText('Success')
    // Success is green: the text colour, painted on a canvas, has more green than red or blue.
    const [red, green, blue] = await status.evaluate((element) => {
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D
      context.fillStyle = getComputedStyle(element).color
      context.fillRect(0, 0, 1, 1)
      return Array.from(context.getImageData(0, 0, 1, 1).data)
    })
    expect(green).toBeGreaterThan(red ?? 0)
    expect(green).toBeGreaterThan(blue ?? 0)

    await page.getByRole('link', { name: 'View All' }).click()
    await expect(page).toHaveURL('/billing/history')
    await expect(page.getByRole('table', { name: /All payments \(1\)/ })).toContainText('$0.00')
    await expectNoAxeViolations(page)
  })

  test("the trial's end charges the first month and adds the next month's credits", async ({ page, request }) => {
    const account = await createAccount(request, 'trial-end', SANDBOX_URL)
    await buyPro(page, account)
    await gotoHydrated(page, '/billing')
    // The sandbox lets the trial end now, as Paddle would on its last day.
    await page.getByRole('button', { name: 'End the billing period now' }).click()
    await expect(toasts(page).getByText('Trial ended')).toBeVisible()
    await expect(page.getByText('Next renewal')).toBeVisible()
    await expect(page.getByText('Trial ends', { exact: true })).toBeHidden()
    await expect(page.getByRole('button', { name: 'Renew now (next billing period)' })).toBeVisible()
    const history = page.getByRole('table', { name: 'Recent payments' })
    await expect(history.getByRole('row')).toHaveCount(3)
    await expect(history.getByRole('row').nth(1)).toContainText('$29.00')
    await page.getByRole('link', { name: 'Dashboard' }).click()
    await expect(page.getByRole('region', { name: 'Account summary' })).toContainText('2005')
  })

  test('a declined card shows the refusal, changes no plan and leaves a failed payment', async ({ page, request, consoleErrors }) => {
    consoleErrors.allow(/status of 402/)
    const account = await createAccount(request, 'declined', SANDBOX_URL)
    await signIn(page, account)
    await gotoHydrated(page, '/billing/checkout?plan=business')
    await page.getByRole('button', { name: 'Use a declined card' }).click()
    await expect(page.getByRole('alert')).toHaveText('The card was declined. No payment was taken: try another card.')
    await gotoHydrated(page, '/billing')
    await expect(page.getByText('Credits remaining')).toBeVisible()
    await expect(billingPlan(page, 'Free').getByRole('button', { name: 'Current Plan' })).toBeDisabled()
    await expect(page.getByRole('table', { name: 'Recent payments' }).locator('[data-status="failed"]')).toHaveText('Failed')
  })

  test('Switch to Free during the trial asks first, keeps the plan until the trial ends, then the member is on Free, uncharged', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, 'downgrade', SANDBOX_URL)
    await buyPro(page, account)
    await gotoHydrated(page, '/billing')
    await billingPlan(page, 'Free').getByRole('button', { name: 'Switch to Free' }).click()
    const dialog = page.getByRole('dialog', { name: 'Switch to the Free plan?' })
    await expect(dialog).toContainText('trial ends on')
    await expect(dialog).toContainText('nothing is charged')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByText('Plan ends', { exact: true })).toBeHidden()

    await billingPlan(page, 'Free').getByRole('button', { name: 'Switch to Free' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Switch to Free' }).click()
    await expect(toasts(page).getByText('Switch to Free scheduled')).toBeVisible()
    await expect(page.getByText('Plan ends', { exact: true })).toBeVisible()
    await expect(page.getByText(/Your Pro plan ends on .*nothing is charged\. Then you are on the Free plan\./)).toBeVisible()
    await expect(billingPlan(page, 'Pro').getByRole('button', { name: 'Current Plan' })).toBeDisabled()
    await expect(billingPlan(page, 'Free').getByRole('button', { name: /^Starts / })).toBeDisabled()

    // The sandbox lets the trial end now, as Paddle would on its last day: no charge.
    await page.getByRole('button', { name: 'End the billing period now' }).click()
    await expect(toasts(page).getByText('Subscription ended')).toBeVisible()
    await expect(billingPlan(page, 'Free').getByRole('button', { name: 'Current Plan' })).toBeDisabled()
    await expect(page.getByText('None on the Free plan')).toBeVisible()
    await expect(page.getByRole('table', { name: 'Recent payments' }).getByRole('row')).toHaveCount(2)
    await page.getByRole('link', { name: 'Dashboard' }).click()
    await expect(page.getByRole('region', { name: 'Account summary' })).toContainText('Free')
  })

  test('one trial per member: after Switch to Free, buying again is charged at once', async ({ page, request }) => {
    const account = await createAccount(request, 'second-purchase', SANDBOX_URL)
    await buyPro(page, account)
    await switchToFreeNow(page)

    await checkOutPro(page, { trial: false })
    await gotoHydrated(page, '/billing')
    await expect(billingPlan(page, 'Pro').getByRole('button', { name: 'Current Plan' })).toBeDisabled()
    await expect(page.getByText('Next renewal')).toBeVisible()
    await expect(page.getByText('Trial ends', { exact: true })).toBeHidden()
    const history = page.getByRole('table', { name: 'Recent payments' })
    await expect(history.getByRole('row')).toHaveCount(3)
    await expect(history.getByRole('row').nth(1)).toContainText('$29.00')
  })

  test('an upgrade from Pro to Business during the trial is confirmed and not charged until the trial ends', async ({ page, request }) => {
    const account = await createAccount(request, 'upgrade', SANDBOX_URL)
    await buyPro(page, account)
    await gotoHydrated(page, '/billing')
    await billingPlan(page, 'Business').getByRole('button', { name: 'Upgrade' }).click()
    await expect(page.getByRole('dialog')).toContainText('Nothing is charged today')
    await page.getByRole('dialog').getByRole('button', { name: 'Upgrade to Business' }).click()
    await expect(toasts(page).getByText('Plan updated')).toBeVisible()
    await expect(billingPlan(page, 'Business').getByRole('button', { name: 'Current Plan' })).toBeDisabled()
    await expect(billingPlan(page, 'Pro').getByRole('button', { name: 'Downgrade' })).toBeVisible()
    await expect(page.getByText(/Free trial of Business: first charge \$79\.00 on /)).toBeVisible()
    await expect(page.getByRole('table', { name: 'Recent payments' }).getByRole('row')).toHaveCount(2)
  })
})

test.describe('plan changes after the trial are prorated as Paddle prorates them', () => {
  test.describe.configure({ timeout: 90_000 })

  test('an upgrade moments into a period is charged the difference, not the new price; straight back, the difference is credited', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, 'prorated', SANDBOX_URL)
    await buyPro(page, account)
    await gotoHydrated(page, '/billing')
    await page.getByRole('button', { name: 'End the billing period now' }).click()
    await expect(toasts(page).getByText('Trial ended')).toBeVisible()
    const credits = page.getByText('Credits remaining').locator('..')
    await expect(credits).toHaveText('Credits remaining2005')

    // Issue 27: the dialog said the difference is charged, and $79.00 was. Now $79 − $29 for the whole period left.
    await billingPlan(page, 'Business').getByRole('button', { name: 'Upgrade' }).click()
    const upgrade = page.getByRole('dialog', { name: 'Upgrade to Business?' })
    await expect(upgrade).toContainText(/About \$50\.00 is charged today for the (29|30) days left of this billing period\./)
    await expect(upgrade).toContainText('Your credits go up by about 4000.')
    await upgrade.getByRole('button', { name: 'Upgrade to Business' }).click()
    await expect(toasts(page).getByText('Plan updated')).toBeVisible()
    const history = page.getByRole('table', { name: 'Recent payments' })
    await expect(history.getByRole('row')).toHaveCount(4)
    await expect(history.getByRole('row').nth(1)).toContainText('Business plan')
    await expect(history.getByRole('row').nth(1)).toContainText('$50.00')
    await expect(history).not.toContainText('$79.00')
    await expect(credits).toHaveText('Credits remaining6005')

    // Straight back to Pro: nothing is charged, the same difference goes to the balance, and the credits it brought go too.
    // The upgrade's toast goes first (4 s), so the one looked for next is the downgrade's.
    await expect(toasts(page).getByText('Plan updated')).toHaveCount(0, { timeout: 15_000 })
    await billingPlan(page, 'Pro').getByRole('button', { name: 'Downgrade' }).click()
    const downgrade = page.getByRole('dialog', { name: 'Downgrade to Pro?' })
    await expect(downgrade).toContainText('About $50.00 is credited to your balance today')
    await downgrade.getByRole('button', { name: 'Downgrade to Pro' }).click()
    await expect(toasts(page).getByText('Plan updated')).toBeVisible()
    await expect(history.getByRole('row').nth(1)).toContainText('$0.00')
    await expect(history.getByRole('row').nth(1)).toContainText('$50.00 credited to your balance')
    await expect(page.getByText('Credit balance: $50.00, from a downgrade. It pays your next payments first.')).toBeVisible()
    await expect(credits).toHaveText('Credits remaining2005')
    await expectNoAxeViolations(page)

    // The renewal is paid from the balance: $29.00 of the $50.00, nothing from the card.
    await page.getByRole('button', { name: 'Renew now (next billing period)' }).click()
    await expect(toasts(page).getByText('Subscription renewed')).toBeVisible()
    await expect(history.getByRole('row').nth(1)).toContainText('$29.00 paid from your balance')
    await expect(page.getByText('Credit balance: $21.00, from a downgrade.', { exact: false })).toBeVisible()
  })
})

test.describe('a member cannot change their own plan or credits', () => {
  test('no API route takes a plan or credits from a member, and an unsigned webhook is refused', async ({ request }) => {
    const account = await createAccount(request, 'tamper', SANDBOX_URL)
    const token = await apiToken(request, account, SANDBOX_URL)
    const auth = { Authorization: `Bearer ${token}` }
    const me = async () =>
      (
        (await (await request.get('/api/auth/me', { headers: auth })).json()) as {
          data: { id: string; profile: { subscriptionPlan: string; credits: number; role: string } }
        }
      ).data

    const before = await me()
    expect(before.profile).toMatchObject({ subscriptionPlan: 'free', credits: 5, role: 'user' })

    const attempts = [
      request.put('/api/auth/profile', {
        headers: auth,
        data: { subscription_plan: 'business', subscriptionPlan: 'business', credits: 99999, role: 'admin' },
      }),
      request.put('/api/auth/profile', {
        headers: auth,
        data: { fullName: 'Still Me', subscriptionPlan: 'business', credits: 99999, role: 'admin' },
      }),
      request.put(`/api/users/${before.id}`, { headers: auth, data: { subscription_plan: 'business', credits: 99999 } }),
      request.post('/api/webhooks/paddle', {
        data: { event_id: 'evt_forged', event_type: 'subscription.created', occurred_at: new Date().toISOString(), data: {} },
      }),
      request.post('/api/webhooks/paddle', {
        headers: { 'Paddle-Signature': `ts=${Math.floor(Date.now() / 1000)};h1=${'0'.repeat(64)}` },
        data: { event_id: 'evt_forged_2', event_type: 'transaction.completed', occurred_at: new Date().toISOString(), data: {} },
      }),
    ]
    const statuses = await Promise.all(attempts.map(async (attempt) => (await attempt).status()))
    expect(statuses[0]).toBe(400)
    expect(statuses[1]).toBe(200)
    expect(statuses[2]).toBeGreaterThanOrEqual(400)
    expect(statuses[3]).toBe(401)
    expect(statuses[4]).toBe(401)

    // The page actions refuse it too: no subscription to change, and /billing/checkout only pays through webhooks.
    const changePlan = await request.post('/billing', {
      headers: { ...auth, Origin: SANDBOX_URL },
      form: { intent: 'change-plan', plan: 'business' },
    })
    expect(changePlan.status()).toBe(409)

    const after = await me()
    expect(after.profile).toMatchObject({ subscriptionPlan: 'free', credits: 5, role: 'user' })
  })
})
