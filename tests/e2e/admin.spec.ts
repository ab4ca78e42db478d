import type { Page } from '@playwright/test'
import { apiToken, createAccount, latestMail } from './accounts.ts'
import {
  ADMIN,
  BASE_URL,
  expect,
  expectNoAxeViolations,
  gotoHydrated,
  hydrated,
  signIn,
  signInAsAdmin,
  test,
  toasts,
  toastWith,
  type Credentials,
} from './fixtures.ts'
import { startIsolatedServer, type IsolatedServer } from './isolated-server.ts'

// The admin walks every tab. Accounts, posts and inquiries are created fresh per test, so the
// demo content other specs rely on stays as it is.
test.describe.configure({ timeout: 90_000 })

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

/** A plan form's save, to await after the click that sends it. */
const planSaved = (page: Page) =>
  page.waitForResponse((response) => response.request().method() === 'POST' && response.url().includes('/admin/subscriptions/'))

/** A plan's card on the Subscriptions tab. */
const planCard = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Subscription plans' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })

async function adminHeaders(request: Parameters<typeof apiToken>[0], baseUrl?: string) {
  return { Authorization: `Bearer ${await apiToken(request, ADMIN, baseUrl)}` }
}

test.describe('Users Management', () => {
  test('support: send the verification link again, and sign a member out everywhere at once', async ({ page, browser, request }) => {
    const user = await createAccount(request, 'supported', BASE_URL, { verified: false })
    const theirs = await browser.newContext()
    const member = await theirs.newPage()
    try {
      await signIn(member, user)
      await signInAsAdmin(page)
      await gotoHydrated(page, `/admin?search=${encodeURIComponent(user.email)}`)
      const line = row(page, user.email)

      // Their first mail was lost: a new one, whose link verifies them.
      const outbox = async () => {
        const response = await request.get(`/api/mail/outbox?to=${encodeURIComponent(user.email)}&limit=20`, {
          headers: await adminHeaders(request),
        })
        return ((await response.json()) as { data: { subject: string }[] }).data.filter(
          (mail) => mail.subject === 'Verify your e-mail address for Aether',
        ).length
      }
      const sent = await outbox()
      await line.getByRole('button', { name: `Resend verification to ${user.email}` }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Send Link' }).click()
      await expect(toasts(page).getByText('Verification email sent')).toBeVisible()
      expect(await outbox()).toBe(sent + 1)

      await line.getByRole('button', { name: `Sign out ${user.email} everywhere` }).click()
      await expect(page.getByRole('dialog')).toContainText('Their API keys and connected devices keep working.')
      await page.getByRole('dialog').getByRole('button', { name: 'Sign Out Everywhere' }).click()
      await expect(toastWith(page, 'Signed out everywhere', '1 session ended.')).toBeVisible()
      // Their open page is signed out at its next request.
      await member.goto('/dashboard')
      await expect(member).toHaveURL(/\/auth/)
      // And the audit log names both, with the admin.
      await gotoHydrated(page, '/admin/settings')
      const audit = page.getByRole('region', { name: 'System Settings' })
      await expect(audit.getByText(`Signed ${user.email} out everywhere (1 session)`)).toBeVisible()
      await expect(audit.getByText(`Sent ${user.email} the e-mail verification link again`)).toBeVisible()
    } finally {
      await theirs.close()
    }
  })

  test('search, change plan and credits inline, edit, e-mail and delete a user', async ({ page, request, consoleErrors }) => {
    consoleErrors.allow(/status of 400/) // the refused credits value
    const user = await createAccount(request, 'managed', BASE_URL, { verified: false })
    await signInAsAdmin(page)
    await gotoHydrated(page, `/admin?search=${encodeURIComponent(user.email)}`)
    await expect(page.getByRole('table', { name: 'Users' }).getByRole('row')).toHaveCount(2)
    const line = row(page, user.email)
    await expect(line).toContainText('Test Member')
    await expect(line).toContainText('No') // not verified yet

    await line.getByLabel(`Plan of ${user.email}`).selectOption('pro')
    await expect(toasts(page).getByText('Plan updated')).toBeVisible()
    const credits = line.getByLabel(`Credits of ${user.email}`)
    await credits.fill('250')
    await credits.blur()
    await expect(toasts(page).getByText('Credits updated')).toBeVisible()
    await credits.fill('99999999')
    await credits.blur()
    await expect(toasts(page).getByText('Error updating credits')).toBeVisible()
    await expect(credits).toHaveValue('250')

    await line.getByRole('button', { name: `Edit User ${user.email}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit User' })
    await dialog.getByLabel('Full Name').fill('Renamed Member')
    await dialog.getByLabel('Credits').fill('42')
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await expect(toasts(page).getByText('User updated')).toBeVisible()
    await expect(line).toContainText('Renamed Member')
    await expect(line.getByLabel(`Credits of ${user.email}`)).toHaveValue('42')

    await line.getByRole('button', { name: `Send Email to ${user.email}` }).click()
    const compose = page.getByRole('dialog', { name: 'Send Email' })
    await compose.getByLabel('Subject').fill('About your account')
    await compose.getByLabel('Message').fill('Hello from the admin.')
    await compose.getByRole('button', { name: 'Send' }).click()
    await expect(toasts(page).getByText('Email sent')).toBeVisible()
    expect((await latestMail(user.email, 'About your account')).text).toContain('Hello from the admin.')

    await line.getByRole('button', { name: `Delete User ${user.email}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete User' }).click()
    await expect(toasts(page).getByText('User deleted')).toBeVisible()
    await expect(page.getByText('No users found')).toBeVisible()
    await expectNoAxeViolations(page)
  })

  test('a credits value typed while the table reloads after a save is kept, and saved', async ({ page, request }) => {
    const user = await createAccount(request, 'typing')
    await signInAsAdmin(page)
    await gotoHydrated(page, `/admin?search=${encodeURIComponent(user.email)}`)
    const credits = row(page, user.email).getByLabel(`Credits of ${user.email}`)
    // The table's reload after a save is held back until the admin has typed the next value.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/admin\.data/, async (route) => {
      if (route.request().method() === 'GET') await held
      await route.continue()
    })
    await credits.fill('250')
    await credits.blur()
    await expect(toasts(page).getByText('Credits updated')).toBeVisible()
    await credits.fill('300')
    const reloaded = page.waitForResponse((response) => response.url().includes('/admin.data') && response.request().method() === 'GET')
    release()
    await reloaded
    await page.waitForTimeout(200) // the reloaded table renders
    await expect(credits).toHaveValue('300')
    await credits.blur()
    const headers = { Authorization: `Bearer ${await apiToken(request, user)}` }
    await expect
      .poll(
        async () =>
          ((await (await request.get('/api/auth/me', { headers })).json()) as { data: { profile: { credits: number } } }).data.profile
            .credits,
      )
      .toBe(300)
  })

  test('a refused credits value falls back to the last saved one while the table has not reloaded yet', async ({
    page,
    request,
    consoleErrors,
  }) => {
    consoleErrors.allow(/status of 400/) // the refused credits value
    const user = await createAccount(request, 'refused')
    await signInAsAdmin(page)
    await gotoHydrated(page, `/admin?search=${encodeURIComponent(user.email)}`)
    const credits = row(page, user.email).getByLabel(`Credits of ${user.email}`)
    const before = await credits.inputValue()
    // The table's reload after the save stays pending, so its row still holds the older balance
    // when the next value is refused.
    await page.route(/\/admin\.data/, async (route) => {
      if (route.request().method() !== 'GET') await route.continue()
    })
    await credits.fill('250')
    await credits.blur()
    await expect(toasts(page).getByText('Credits updated')).toBeVisible()
    await credits.fill('99999999')
    await credits.blur()
    await expect(toasts(page).getByText('Error updating credits')).toBeVisible()
    await expect(credits).toHaveValue('250')
    expect(before).not.toBe('250')
    // A balance stored from elsewhere (the Edit User dialog) then replaces the field.
    await page.unroute(/\/admin\.data/)
    await row(page, user.email)
      .getByRole('button', { name: `Edit User ${user.email}` })
      .click()
    const dialog = page.getByRole('dialog', { name: 'Edit User' })
    await dialog.getByLabel('Credits').fill('42')
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await expect(toasts(page).getByText('User updated')).toBeVisible()
    await expect(credits).toHaveValue('42')
  })

  test('numbered pages of 10, an admin cannot delete themselves, and a bad page shows the fetching error', async ({
    page,
    request,
    consoleErrors,
  }) => {
    consoleErrors.allow(/status of 409/) // the refused self-deletion
    const prefix = `paged-${Date.now().toString(36)}`
    for (let n = 0; n < 11; n++) await createAccount(request, prefix)
    await signInAsAdmin(page)
    await gotoHydrated(page, `/admin?search=${prefix}`)
    await expect(page.getByRole('table', { name: 'Users' }).getByRole('row')).toHaveCount(11)
    await page.getByRole('navigation', { name: 'User pages' }).getByRole('link', { name: 'Page 2' }).click()
    await expect(page).toHaveURL(new RegExp(`search=${prefix}.*page=2`))
    await expect(page.getByRole('table', { name: 'Users' }).getByRole('row')).toHaveCount(2)

    await gotoHydrated(page, `/admin?search=${encodeURIComponent(ADMIN.email)}`)
    await row(page, ADMIN.email)
      .getByRole('button', { name: `Delete User ${ADMIN.email}` })
      .click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete User' }).click()
    await expect(toasts(page).getByText('Error deleting user')).toBeVisible()
    await expect(toasts(page).getByText('You cannot delete your own account.')).toBeVisible()

    await gotoHydrated(page, '/admin?page=abc')
    await expect(toasts(page).getByText('Error fetching users')).toBeVisible()
  })
})

test.describe('Blog Management', () => {
  test('create a draft with preview, publish it, view, edit, search, delete', async ({ page, context }) => {
    const title = `Admin post ${Date.now().toString(36)}`
    await signInAsAdmin(page)
    await gotoHydrated(page, '/admin/blog')
    await page.getByRole('button', { name: 'New Post' }).click()
    const dialog = page.getByRole('dialog', { name: 'New Post' })
    await dialog.getByLabel('Title').fill(title)
    await dialog.getByLabel('Content').fill('## Hello\n\n- one\n- two\n\n[bad](javascript:alert(1))')
    const preview = dialog.getByTestId('post-preview')
    await expect(preview.getByRole('heading', { name: 'Hello' })).toBeVisible()
    await expect(preview.getByRole('listitem')).toHaveCount(2)
    await expect(preview.getByRole('link', { name: 'bad' })).not.toHaveAttribute('href', /javascript/)
    await expect(dialog.getByLabel('Status')).toHaveValue('draft')
    await dialog.getByLabel('Tags (comma separated)').fill(' ai , , automation ')
    await dialog.getByRole('button', { name: 'Create Post' }).click()
    await expect(toasts(page).getByText('Post created')).toBeVisible()
    const line = row(page, title)
    await expect(line).toContainText('Draft')

    const slug = title.toLowerCase().replace(/ /g, '-')
    expect((await page.request.get(`/blog/${slug}`)).status()).toBe(404)
    await expect(line.getByRole('button', { name: `View ${title} (drafts are not public yet)` })).toBeDisabled()

    await line.getByRole('button', { name: `Edit ${title}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Post' })
    await expect(edit.getByLabel('Tags (comma separated)')).toHaveValue('ai, automation')
    await edit.getByLabel('Status').selectOption('published')
    await edit.getByRole('button', { name: 'Save Post' }).click()
    await expect(toasts(page).getByText('Post updated')).toBeVisible()
    await expect(line).toContainText('Published')

    const [tab] = await Promise.all([context.waitForEvent('page'), line.getByRole('link', { name: `View ${title}` }).click()])
    await expect(tab).toHaveURL(new RegExp(`/blog/${slug}$`))
    await expect(tab.getByRole('heading', { level: 1 })).toHaveText(title)
    await tab.close()

    await page.getByPlaceholder('Search posts...').fill('no-such-post-anywhere')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page.getByText('No posts found matching your search.')).toBeVisible()
    await page.getByRole('link', { name: 'Clear search' }).click()
    await expect(row(page, title)).toBeVisible()

    await row(page, title)
      .getByRole('button', { name: `Delete ${title}` })
      .click()
    await expect(page.getByRole('dialog')).toContainText('Are you sure you want to delete this post?')
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Post' }).click()
    await expect(toasts(page).getByText('Post deleted')).toBeVisible()
    await expect(row(page, title)).toHaveCount(0)
  })

  test('Generate with AI without a provider: the offline drafter writes a New Post draft', async ({ page }) => {
    await signInAsAdmin(page)
    await gotoHydrated(page, '/admin/blog')
    await page.getByRole('button', { name: 'Generate with AI' }).click()
    const dialog = page.getByRole('dialog', { name: 'Generate with AI' })
    await dialog.getByRole('button', { name: 'Generate' }).click()
    await expect(toasts(page).getByText('Title required')).toBeVisible()
    await expect(toasts(page).getByText('Please enter a title to generate content')).toBeVisible()

    await dialog.getByLabel('Title').fill('Automating weekly reports')
    await dialog.getByLabel('Keywords (comma separated)').fill('reports, , spreadsheets ')
    await dialog.getByLabel('Tone').selectOption('casual')
    await dialog.getByLabel('Length').selectOption('short')
    await dialog.getByRole('button', { name: 'Generate' }).click()
    await expect(toasts(page).getByText('Content generated')).toBeVisible()
    const post = page.getByRole('dialog', { name: 'New Post' })
    await expect(post.getByLabel('Title')).toHaveValue('Automating weekly reports')
    await expect(post.getByLabel('Status')).toHaveValue('draft')
    await expect(post.getByLabel('Content')).toHaveValue(/Offline draft/)
    await expect(post.getByLabel('Content')).toHaveValue(/spreadsheets/)
    await expect(post.getByLabel('Excerpt')).toHaveValue(/\.\.\.$/)
    // A provider's stream and its errors: integrations.spec.ts, against a provider on loopback.
  })

  test('a blank title is refused by the server, and a bad page shows the fetching error', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/status of 400/)
    await signInAsAdmin(page)
    await gotoHydrated(page, '/admin/blog')
    await page.getByRole('button', { name: 'New Post' }).click()
    await page.getByRole('dialog').getByLabel('Title').fill('   ')
    await page.getByRole('dialog').getByRole('button', { name: 'Create Post' }).click()
    await expect(toasts(page).getByText('Error saving post')).toBeVisible()
    await expect(toasts(page).getByText('Title is required')).toBeVisible()
    await gotoHydrated(page, '/admin/blog?page=0')
    await expect(toasts(page).getByText('Error fetching blog posts')).toBeVisible()
  })
})

test.describe('Service Inquiries', () => {
  test('a new inquiry appears live; toggle processed, details, reply link, delete', async ({ page, request, consoleErrors }) => {
    consoleErrors.allow(/status of 404/)
    const name = `Live Client ${Date.now().toString(36)}`
    await signInAsAdmin(page)
    await gotoHydrated(page, '/admin/inquiries')
    await expect(page.getByRole('link', { name: /Service Inquiries/ })).toHaveAttribute('aria-current', 'page')

    const posted = await request.post('/api/contact', {
      data: { name, email: 'live@example.com', projectType: 'custom-tools', message: 'Please build a scraper.' },
      headers: { 'X-Forwarded-For': '198.51.100.201' },
    })
    expect(posted.status()).toBe(201)
    const line = row(page, name)
    await expect(line).toBeVisible() // without a reload: the event stream brought it
    // Its own toast: other tests may post inquiries at the same time.
    await expect(toasts(page).getByText(`From ${name}`)).toBeVisible()
    await expect(line).toContainText('Pending')

    await line.getByLabel(`Inquiry from ${name} processed`).check()
    await expect(toasts(page).getByText('Marked as processed')).toBeVisible()
    await expect(line).toContainText('Processed')
    await line.getByLabel(`Inquiry from ${name} processed`).uncheck()
    await expect(toasts(page).getByText('Marked as unprocessed')).toBeVisible()

    await line.getByRole('button', { name: `Details of the inquiry from ${name}` }).click()
    const details = page.getByRole('dialog', { name: `Inquiry from ${name}` })
    await expect(details).toContainText('Please build a scraper.')
    const href = await details.getByRole('link', { name: 'Reply by Email' }).getAttribute('href')
    expect(decodeURIComponent(href ?? '')).toContain('subject=RE: custom-tools Project Inquiry')
    expect(decodeURIComponent(href ?? '')).toContain(`Hi ${name},`)
    await page.keyboard.press('Escape')

    await line.getByRole('button', { name: `Delete the inquiry from ${name}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Inquiry' }).click()
    await expect(toasts(page).getByText('Inquiry deleted')).toBeVisible()
    await expect(row(page, name)).toHaveCount(0)
  })

  test('changing an inquiry someone else deleted shows the spec error toasts', async ({ page, request, consoleErrors }) => {
    consoleErrors.allow(/status of 404/)
    const name = `Gone Client ${Date.now().toString(36)}`
    const posted = await request.post('/api/contact', {
      data: { name, email: 'gone@example.com', projectType: 'other', message: 'Soon deleted.' },
      headers: { 'X-Forwarded-For': '198.51.100.202' },
    })
    const id = ((await posted.json()) as { data: { id: string } }).data.id
    await signInAsAdmin(page)
    // Keep the stale row on screen: no live refresh for this check.
    await page.addInitScript(() => {
      window.EventSource = class {
        addEventListener() {}
        close() {}
      } as unknown as typeof EventSource
    })
    await gotoHydrated(page, `/admin/inquiries?search=${encodeURIComponent(name)}`)
    const deleted = await request.delete(`/api/contact/${id}`, { headers: await adminHeaders(request) })
    expect(deleted.status()).toBe(200)
    // A click, not check(): the refused change puts the box back.
    const box = row(page, name).getByLabel(`Inquiry from ${name} processed`)
    await box.click()
    await expect(toasts(page).getByText('Error updating inquiry')).toBeVisible()
    await expect(box).not.toBeChecked()
    await row(page, name)
      .getByRole('button', { name: `Delete the inquiry from ${name}` })
      .click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Inquiry' }).click()
    await expect(toasts(page).getByText('Error deleting inquiry')).toBeVisible()
    await gotoHydrated(page, '/admin/inquiries?search=' + 'x'.repeat(201))
    await expect(toasts(page).getByText('Error fetching inquiries')).toBeVisible()
  })
})

test.describe('Subscriptions', () => {
  test('add a plan, edit it in its own form with a preview, refuse bad input, delete it; Free cannot be deleted', async ({
    page,
    consoleErrors,
  }) => {
    consoleErrors.allow(/status of (400|409)/)
    const name = `Team ${Date.now().toString(36)}`
    await signInAsAdmin(page)
    await gotoHydrated(page, '/admin/subscriptions')
    await page.getByRole('button', { name: 'Add Plan' }).click()
    await expect(toasts(page).getByText('Missing plan name')).toBeVisible()
    await expect(toasts(page).getByText('Please provide a name for the new plan.')).toBeVisible()

    await page.getByLabel('Plan Name').fill(name)
    await page.getByLabel('Price (USD per month)').fill('999999')
    await page.getByRole('button', { name: 'Add Plan' }).click()
    await expect(toasts(page).getByText('Error adding plan')).toBeVisible()
    await page.getByLabel('Price (USD per month)').fill('49')
    await page.getByRole('button', { name: 'Add Plan' }).click()
    await expect(toasts(page).getByText('Plan added')).toBeVisible()
    const card = planCard(page, name)
    await expect(card).toContainText('$49/month · 0 credits a month')
    await expect(card).toContainText('0 members')

    // Its own form, grouped, beside the card pricing would show.
    await card.getByRole('link', { name: `Edit the ${name} plan` }).click()
    await expect(page).toHaveURL(/\/admin\/subscriptions\/[0-9a-f-]{36}$/)
    await hydrated(page)
    for (const group of [
      'Price and credits',
      'On the pricing page',
      'Runs',
      'Automations and actions',
      'AI',
      'Devices and seats',
      'Integrations',
      'Cloud concurrency',
    ])
      await expect(page.getByRole('group', { name: group })).toBeVisible()
    const preview = page.getByRole('complementary', { name: 'Preview on pricing' })
    await expect(preview.getByRole('heading', { name })).toBeVisible()
    await expect(preview).toContainText('$49/month')
    await page.getByLabel('Features (one per line)').fill('Ten seats\nPriority support')
    await page.getByLabel('Most Popular').check()
    await expect(preview.getByRole('listitem')).toHaveText(['Ten seats', 'Priority support'])
    await expect(preview.getByText('Most Popular')).toBeVisible()

    // A refused field is named, marked, and nothing of the form is saved.
    await page.getByLabel('Credits per month').fill('300')
    await page.getByLabel('Price (USD per month)').fill('-5')
    await page.getByRole('button', { name: 'Save Plan' }).click()
    await expect(toastWith(page, 'Error updating plan', 'Price cannot be negative.')).toBeVisible()
    await expect(page.getByLabel('Price (USD per month)')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Price (USD per month)')).toHaveAccessibleDescription('Price cannot be negative.')
    await page.getByLabel('Price (USD per month)').fill('49')
    // Cloud runs at once (docs/decisions/029): 1 for a new plan, at least 1.
    const cloudRuns = page.getByLabel('Cloud runs at once')
    await expect(cloudRuns).toHaveValue('1')
    await cloudRuns.fill('0')
    await page.getByRole('button', { name: 'Save Plan' }).click()
    await expect(toastWith(page, 'Error updating plan', 'Cloud runs at once must be at least 1.')).toBeVisible()
    await cloudRuns.fill('3')
    // What was typed is what the server judges: a mistyped limit is refused, not taken as blank (unlimited).
    await page.getByLabel('Runs / month').fill('12x')
    await page.getByRole('button', { name: 'Save Plan' }).click()
    await expect(toastWith(page, 'Error updating plan', 'Runs per month must be a number, or blank for unlimited.')).toBeVisible()
    await expect(page.getByLabel('Runs / month')).toHaveAttribute('aria-invalid', 'true')
    await page.getByLabel('Runs / month').fill('')
    // A refused line of the features marks the features.
    await page.getByLabel('Features (one per line)').fill(`Ten seats\n${'x'.repeat(121)}`)
    await page.getByRole('button', { name: 'Save Plan' }).click()
    await expect(page.getByLabel('Features (one per line)')).toHaveAccessibleDescription('Each feature must be at most 120 characters.')
    await page.getByLabel('Features (one per line)').fill('Ten seats\nPriority support')
    // What the plan includes: a limit (blank is unlimited) and an AI feature.
    await expect(page.getByLabel('Model calls / month')).toHaveValue('0')
    await page.getByLabel('Model calls / month').fill('50')
    // Devices (docs/decisions/031): 1 for a new plan, blank for unlimited.
    await expect(page.getByLabel('Devices', { exact: true })).toHaveValue('1')
    await page.getByLabel('Devices', { exact: true }).fill('')
    // The shortest schedule interval (docs/decisions/036): 15 minutes for a new plan, at least 1.
    const shortest = page.getByLabel('Shortest schedule (min)')
    await expect(shortest).toHaveValue('15')
    await shortest.fill('0')
    await page.getByRole('button', { name: 'Save Plan' }).click()
    await expect(
      toastWith(page, 'Error updating plan', 'Shortest schedule interval must be at least 1, or blank for no minimum.'),
    ).toBeVisible()
    await shortest.fill('30')
    await page.getByLabel('AI planning').check()
    const saved = planSaved(page)
    await page.getByRole('button', { name: 'Save Plan' }).click()
    expect((await saved).ok()).toBe(true)
    await expect(toasts(page).getByText('Plan updated')).toBeVisible()

    await page.reload()
    await expect(page.getByLabel('Credits per month')).toHaveValue('300')
    await expect(page.getByLabel('Model calls / month')).toHaveValue('50')
    await expect(page.getByLabel('Cloud runs at once')).toHaveValue('3')
    await expect(page.getByLabel('Devices', { exact: true })).toHaveValue('')
    await expect(page.getByLabel('Shortest schedule (min)')).toHaveValue('30')
    await expect(page.getByLabel('AI planning')).toBeChecked()
    await expect(page.getByLabel('Most Popular')).toBeChecked()
    await expect(page.getByLabel('Suggestions')).not.toBeChecked()

    await page.getByRole('link', { name: 'All plans' }).click()
    await expect(card).toContainText('$49/month · 300 credits a month')
    await expect(card).toContainText('Most Popular')
    await expect(card).toContainText('Includes AI planning.')
    await card.getByRole('button', { name: `Delete the ${name} plan` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Plan' }).click()
    await expect(toasts(page).getByText('Plan deleted')).toBeVisible()
    await expect(card).toHaveCount(0)

    await page.getByRole('button', { name: 'Delete the Free plan' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Plan' }).click()
    await expect(toasts(page).getByText('Error deleting plan')).toBeVisible()
    await expect(toasts(page).getByText('The Free plan cannot be deleted: every account falls back to it.')).toBeVisible()
  })
})

test.describe('Subscriptions, on a server of its own: what pricing offers, and in which order', () => {
  let server: IsolatedServer
  test.beforeAll(async () => {
    test.setTimeout(90_000)
    server = await startIsolatedServer()
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('a plan without a price id is not for sale until it has one; its order moves it on pricing', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/status of 400/) // the refused order
    const pricing = async () => {
      await gotoHydrated(page, `${server.url}/#pricing`)
      return page.locator('#pricing article h3').allTextContents()
    }
    await signIn(page, ADMIN, server.url)
    await gotoHydrated(page, `${server.url}/admin/subscriptions`)
    await page.getByLabel('Plan Name').fill('Starter')
    await page.getByLabel('Price (USD per month)').fill('9')
    await page.getByRole('button', { name: 'Add Plan' }).click()
    await expect(toasts(page).getByText('Plan added')).toBeVisible()
    // New plans go last; without a price id its card and its form say it is not for sale.
    const card = planCard(page, 'Starter')
    await expect(card).toContainText('Order 3')
    await expect(card).toContainText('Not for sale: add its Paddle price id. Pricing and billing do not offer it until then.')
    await card.getByRole('link', { name: 'Edit the Starter plan' }).click()
    await expect(page).toHaveURL(/\/admin\/subscriptions\/[0-9a-f-]{36}$/)
    await hydrated(page)
    const editing = page.url()
    const priceId = page.getByLabel('Paddle price id')
    await expect(priceId).toHaveAccessibleDescription(
      'Not for sale: add its Paddle price id. Pricing and billing do not offer it until then.',
    )
    expect(await pricing()).toEqual(['Free', 'Pro', 'Business'])

    await gotoHydrated(page, editing)
    await priceId.fill('starter-monthly-plan')
    const saved = planSaved(page)
    await page.getByRole('button', { name: 'Save Plan' }).click()
    expect((await saved).ok()).toBe(true)
    await expect(page.getByText('Not for sale: add its Paddle price id.')).toHaveCount(0)
    expect(await pricing()).toEqual(['Free', 'Pro', 'Business', 'Starter'])

    // The admin sets the order: Starter next to Pro (the cheaper first at the same order).
    await gotoHydrated(page, editing)
    const order = page.getByLabel('Order')
    await order.fill('-1')
    await page.getByRole('button', { name: 'Save Plan' }).click()
    await expect(toastWith(page, 'Error updating plan', 'Order cannot be negative.')).toBeVisible()
    await order.fill('1')
    const moved = planSaved(page)
    await page.getByRole('button', { name: 'Save Plan' }).click()
    expect((await moved).ok()).toBe(true)
    expect(await pricing()).toEqual(['Free', 'Starter', 'Pro', 'Business'])
    await gotoHydrated(page, `${server.url}/billing`)
    await expect(page.getByRole('region', { name: 'Available Plans' }).getByRole('heading', { level: 3 })).toHaveText([
      'Free',
      'Starter',
      'Pro',
      'Business',
    ])
  })
})

test.describe('System Settings, on a server of its own', () => {
  let server: IsolatedServer
  test.beforeAll(async () => {
    test.setTimeout(90_000)
    server = await startIsolatedServer()
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('validation, saving, the audit log, and maintenance mode acting on another visitor', async ({
    page,
    browser,
    request,
    consoleErrors,
  }) => {
    consoleErrors.allow(/status of (400|503)/)
    await signIn(page, ADMIN, server.url)
    await gotoHydrated(page, `${server.url}/admin/settings`)
    const rate = page.getByLabel('API Rate Limit (per minute)')
    await rate.fill('0')
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect(toasts(page).getByText('Error saving settings')).toBeVisible()
    await expect(toasts(page).getByText('API rate limit must be between 1 and 10000 requests per minute.')).toBeVisible()

    await rate.fill('120')
    await page.getByLabel('Site Name').fill('Aether Labs')
    await page.getByLabel('Description').fill('Automation for labs that run on routines.')
    await page.getByLabel('Maintenance Mode').check()
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect(toasts(page).getByText('Settings saved')).toBeVisible()
    await page.reload()
    await expect(
      page
        .getByRole('region', { name: 'System Settings' })
        .getByText(/Changed System Settings: siteName, description, maintenanceMode, apiRateLimit/),
    ).toBeVisible()

    // Someone else, in another browser: the maintenance page, 503 with Retry-After.
    const visitor = await browser.newContext()
    const other = await visitor.newPage()
    const answer = await other.goto(`${server.url}/`)
    expect(answer?.status()).toBe(503)
    expect(answer?.headers()['retry-after']).toBe('300')
    await expect(other.getByRole('heading', { name: 'Aether Labs is down for maintenance' })).toBeVisible()
    expect((await request.get(`${server.url}/api/blog`)).status()).toBe(503)
    // The sign-in page stays open, and the admin keeps working.
    expect((await other.goto(`${server.url}/auth`))?.status()).toBe(200)
    await visitor.close()
    expect((await page.goto(`${server.url}/`))?.status()).toBe(200)
    // siteName and description feed the page titles and metadata.
    await expect(page).toHaveTitle('Aether Labs — AI-powered browser and desktop automation')
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'Automation for labs that run on routines.')
    await page.goto(`${server.url}/admin/settings`)
    await expect(page).toHaveTitle('Admin Panel | Aether Labs')

    await gotoHydrated(page, `${server.url}/admin/settings`)
    await page.getByLabel('Maintenance Mode').uncheck()
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect(toasts(page).getByText('Settings saved')).toBeVisible()
    expect((await request.get(`${server.url}/api/blog`)).status()).toBe(200)
  })
})

test.describe('the admin gate', () => {
  test('a member posting to an admin action gets the Access Denied answer, not a change', async ({ page, request }) => {
    const member: Credentials = await createAccount(request, 'intruder')
    await signIn(page, member)
    const response = await page.request.post('/admin?index', { form: { intent: 'update-credits', userId: 'x', credits: '5' } })
    expect(response.status()).toBe(403)
    await page.goto('/admin/settings')
    await expect(page).toHaveURL('/dashboard')
  })

  test('an admin whose role is taken away meanwhile gets the Access Denied card on their next change', async ({
    page,
    request,
    consoleErrors,
  }) => {
    consoleErrors.allow(/status of 403/)
    const colleague: Credentials = await createAccount(request, 'colleague')
    const headers = await adminHeaders(request)
    const listed = await request.get(`/api/users?limit=1&search=${encodeURIComponent(colleague.email)}`, { headers })
    const { data } = (await listed.json()) as { data: { id: string }[] }
    const id = data[0]?.id
    expect((await request.put(`/api/users/${id}`, { data: { role: 'admin' }, headers })).status()).toBe(200)

    await signIn(page, colleague)
    await gotoHydrated(page, '/admin/settings')
    expect((await request.put(`/api/users/${id}`, { data: { role: 'user' }, headers })).status()).toBe(200)
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect(page.getByText('Access Denied')).toBeVisible()
    await expect(page.getByText("You don't have permission to access the admin panel.")).toBeVisible()
    await page.getByRole('link', { name: 'Return to Dashboard' }).click()
    await expect(page).toHaveURL('/dashboard')
  })
})
