import type { Page } from '@playwright/test'
import { createAccount } from './accounts.ts'
import { expect, gotoHydrated, signIn, signInAsAdmin, test, toasts } from './fixtures.ts'

// The template gallery (docs/decisions/022): the admin writes and publishes a template in the
// Templates tab; a member finds it by its category, previews its steps in words, fills its inputs
// and gets an automation in the builder with the values in place.

const INPUTS = [
  { name: 'start_url', label: 'Order page', example: 'https://orders.example.com/lookup' },
  { name: 'order_number', label: 'Order number', example: 'A-1001' },
]
const STEPS = [
  { type: 'navigate', url: '{{start_url}}' },
  { type: 'type', target: [{ by: 'label', text: 'Order number' }], text: '{{order_number}}' },
  { type: 'click', target: [{ by: 'role', role: 'button', name: 'Look up' }] },
  { type: 'assertText', text: 'Order {{order_number}}' },
]

const stepList = (page: Page) => page.getByRole('list', { name: 'Steps' })
const step = (page: Page, n: number) => stepList(page).getByRole('listitem', { name: new RegExp(`^Step ${n}: `) })

test('the admin publishes a template; a member finds it by category, previews it, fills it in and gets an automation', async ({
  browser,
  request,
}) => {
  // Two people's whole journeys, each signing in: three times the usual time.
  test.slow()
  const name = `Look up an order ${Date.now().toString(36)}`

  const adminPage = await (await browser.newContext()).newPage()
  await signInAsAdmin(adminPage)
  await gotoHydrated(adminPage, '/admin')
  await adminPage.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Templates' }).click()
  await expect(adminPage).toHaveURL('/admin/templates')
  await expect(adminPage.getByRole('table', { name: 'Automation templates' })).toContainText('Send a contact form')

  await adminPage.getByRole('button', { name: 'New Template' }).click()
  const dialog = adminPage.getByRole('dialog', { name: 'New Template' })
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByLabel('Category').selectOption({ label: 'Form submission' })
  await dialog.getByLabel('Description').fill('Looks up one order by its number.')
  await dialog.getByLabel('Inputs (JSON)').fill(JSON.stringify(INPUTS))
  await dialog.getByLabel('Steps (JSON)').fill(JSON.stringify([...STEPS, { type: 'assertText', text: '{{missing}}' }]))
  // The preview checks as the server does: an input that is not declared is named.
  await expect(dialog.getByRole('region', { name: 'Preview (with the examples)' })).toContainText(
    "Step 5 (assertText): {{missing}} is not one of the template's inputs",
  )
  await dialog.getByLabel('Steps (JSON)').fill(JSON.stringify(STEPS))
  const preview = dialog.getByRole('region', { name: 'Preview (with the examples)' })
  await expect(preview.getByRole('listitem')).toHaveText([
    'Go to https://orders.example.com/lookup',
    'Type “A-1001” into Field labelled “Order number”',
    'Click Button named “Look up”',
    'Check that the page shows “Order A-1001”',
  ])
  await dialog.getByRole('button', { name: 'Create Template' }).click()
  await expect(toasts(adminPage).getByText('Template created')).toBeVisible()
  const row = adminPage.getByRole('row').filter({ hasText: name })
  await expect(row).toContainText('Draft')

  // A draft is not in the members' gallery; published, it is.
  const member = await createAccount(request, 'templates')
  const memberPage = await (await browser.newContext()).newPage()
  await signIn(memberPage, member)
  await gotoHydrated(memberPage, '/dashboard/templates?category=form-submission')
  await expect(memberPage.getByRole('heading', { name: 'Send a contact form' })).toBeVisible()
  await expect(memberPage.getByRole('heading', { name })).toHaveCount(0)

  await row.getByRole('button', { name: `Publish ${name}` }).click()
  await expect(toasts(adminPage).getByText('Template published')).toBeVisible()
  await expect(row).toContainText('Published')

  // The member comes from the dashboard and picks the category.
  await gotoHydrated(memberPage, '/dashboard')
  await memberPage.getByRole('link', { name: 'Start from a template' }).click()
  await expect(memberPage).toHaveURL('/dashboard/templates')
  // Every template's form and steps: a longer page than most, on a busy machine.
  await expect(memberPage.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible({ timeout: 15_000 })
  await expect(memberPage.getByRole('heading', { name: 'Copy a table into rows' })).toBeVisible()
  await memberPage.getByRole('navigation', { name: 'Template categories' }).getByRole('link', { name: 'Form submission' }).click()
  await expect(memberPage).toHaveURL('/dashboard/templates?category=form-submission')
  await expect(memberPage.getByRole('heading', { name: 'Copy a table into rows' })).toHaveCount(0)
  const card = memberPage.locator(`[data-template="${name}"]`)
  await expect(card.getByRole('heading', { name })).toBeVisible()

  // The preview shows the examples, then the values as they are typed.
  const steps = card.getByRole('list', { name: `Steps of ${name}` })
  await expect(steps.getByRole('listitem').first()).toHaveText('Go to https://orders.example.com/lookup')
  await card.getByLabel('Order page').fill('https://shop.example.net/orders')
  await card.getByLabel('Order number').fill('B-2042')
  await expect(steps.getByRole('listitem')).toHaveText([
    'Go to https://shop.example.net/orders',
    'Type “B-2042” into Field labelled “Order number”',
    'Click Button named “Look up”',
    'Check that the page shows “Order B-2042”',
  ])
  await card.getByLabel('Name of the automation').fill('Order B-2042')
  await card.getByRole('button', { name: 'Use template' }).click()

  await expect(memberPage).toHaveURL(/\/dashboard\/automations\/[0-9a-f-]{36}$/)
  await expect(toasts(memberPage).getByText('Automation created from the template')).toBeVisible()
  await expect(memberPage.getByRole('heading', { name: 'Edit Order B-2042' })).toBeVisible()
  await expect(step(memberPage, 1).getByLabel('URL')).toHaveValue('https://shop.example.net/orders')
  await expect(step(memberPage, 2).getByLabel('Text', { exact: true })).toHaveValue('B-2042')
  await expect(step(memberPage, 4).getByLabel('Expected text')).toHaveValue('Order B-2042')

  // The workspace's activity says where it came from.
  await gotoHydrated(memberPage, '/workspace/activity')
  await expect(memberPage.getByRole('list', { name: 'Activity' })).toContainText(`Created Order B-2042 from the template “${name}”`)

  // Advanced templates name the plan that unlocks them instead of offering the form.
  await gotoHydrated(memberPage, '/dashboard/templates?category=scraping')
  const advanced = memberPage.locator('[data-template="Collect a table across three pages"]')
  await expect(advanced.getByText('Advanced', { exact: true })).toBeVisible()
  await expect(advanced).toContainText('Advanced workflow templates is part of the Business plan; you are on the Free plan.')
  await expect(advanced.getByRole('button', { name: 'Use template' })).toHaveCount(0)
})
