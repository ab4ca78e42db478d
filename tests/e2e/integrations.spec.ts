import { startFakeChatCompletions, type FakeChatCompletions } from '../../server/testing/fake-chat-completions.ts'
import { ADMIN, expect, gotoHydrated, MEMBER, signIn, test, toasts } from './fixtures.ts'
import { startIsolatedServer, type IsolatedServer } from './isolated-server.ts'

// The edge of our world, really called: an OpenAI-compatible endpoint the test runs on loopback
// (the real provider client talks to it), and an SMTP relay that is not there. What they do
// reaches the admin and the member as the spec's toasts.
test.describe.configure({ mode: 'serial', timeout: 90_000 })

let ai: FakeChatCompletions
let server: IsolatedServer
test.beforeAll(async () => {
  test.setTimeout(90_000)
  ai = await startFakeChatCompletions()
  server = await startIsolatedServer({
    AI_BASE_URL: ai.baseUrl,
    AI_API_KEY: 'test-key',
    AI_MODEL: 'test-model',
    AI_TIMEOUT_MS: '8000',
    SMTP_URL: 'smtp://127.0.0.1:1',
  })
})
test.afterAll(async () => {
  await server?.stop()
  await ai?.close()
})

async function openGenerateDialog(page: Parameters<typeof gotoHydrated>[0], title: string) {
  await gotoHydrated(page, `${server.url}/admin/blog`)
  await page.getByRole('button', { name: 'Generate with AI' }).click()
  const dialog = page.getByRole('dialog', { name: 'Generate with AI' })
  await dialog.getByLabel('Title').fill(title)
  return dialog
}

test.describe('Generate with AI against an OpenAI-compatible provider', () => {
  test("the provider's text streams into view, then opens as a draft post", async ({ page }) => {
    ai.respondWith({ chunks: ['# Weekly reports\n\n', 'Reports that write themselves. ', 'Step one: ', 'record it once.'], delayMs: 400 })
    await signIn(page, ADMIN, server.url)
    const dialog = await openGenerateDialog(page, 'Weekly reports')
    await dialog.getByRole('button', { name: 'Generate' }).click()
    // Part of the text is on screen while the provider is still writing.
    await expect(dialog.getByLabel('Generated text')).toContainText('Reports that write themselves.')
    await expect(dialog.getByRole('button', { name: 'Generating...' })).toBeDisabled()

    await expect(toasts(page).getByText('Content generated')).toBeVisible()
    const post = page.getByRole('dialog', { name: 'New Post' })
    await expect(post.getByLabel('Content')).toHaveValue(/Step one: record it once\.$/)
    await expect(post.getByLabel('Status')).toHaveValue('draft')
    await expect(post.getByLabel('Excerpt')).toHaveValue('Reports that write themselves. Step one: record it once.')
    expect(ai.requests.at(-1)?.body.model).toBe('test-model')
    expect(ai.requests.at(-1)?.headers.authorization).toBe('Bearer test-key')
  })

  test("a provider error reaches the admin as 'Error generating content' with its reason", async ({ page, consoleErrors }) => {
    consoleErrors.allow(/status of 503 .*\/api\/ai\/generate-blog/)
    ai.respondWith({ status: 500, message: 'The model is overloaded' })
    await signIn(page, ADMIN, server.url)
    const dialog = await openGenerateDialog(page, 'Anything')
    await dialog.getByRole('button', { name: 'Generate' }).click()
    await expect(toasts(page).getByText('Error generating content')).toBeVisible()
    await expect(toasts(page).getByText('The AI provider answered HTTP 500: The model is overloaded')).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'New Post' })).toHaveCount(0)
  })

  test('a provider that never answers times out with the same toast', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/status of 50\d/)
    ai.respondWith({ hang: true })
    await signIn(page, ADMIN, server.url)
    const dialog = await openGenerateDialog(page, 'Anything at all')
    await dialog.getByRole('button', { name: 'Generate' }).click()
    await expect(toasts(page).getByText('Error generating content')).toBeVisible({ timeout: 20_000 })
    await expect(dialog.getByRole('button', { name: 'Generate' })).toBeEnabled()
  })
})

test.describe('an SMTP relay that refuses', () => {
  test("Settings' Reset Password says 'Error sending reset email'", async ({ page, consoleErrors }) => {
    consoleErrors.allow(/status of 503/)
    await signIn(page, MEMBER, server.url)
    await gotoHydrated(page, `${server.url}/settings`)
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await expect(toasts(page).getByText('Error sending reset email')).toBeVisible()
    await expect(toasts(page).getByText('The reset e-mail could not be sent. Please try again later.')).toBeVisible()
  })
})
