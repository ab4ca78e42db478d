import { deflateSync } from 'node:zlib'
import type { APIRequestContext, Page } from '@playwright/test'
import { adminHeaders, createAccount, postInquiry } from './accounts.ts'
import { ADMIN, expect, gotoHydrated, signIn, signInAsAdmin, test, toasts, toastWith } from './fixtures.ts'
import { startIsolatedServer, type IsolatedServer } from './isolated-server.ts'

// What admin.spec.ts leaves out: blog and inquiry paging, cover uploads, the stale-row errors,
// the unprocessed badge, the default theme for visitors, and a plan that members are on.
test.describe.configure({ timeout: 90_000 })

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

/** The body texts of a table's rows, header excluded. */
async function firstCells(page: Page, table: string) {
  return page
    .getByRole('table', { name: table })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((tr) => tr.querySelectorAll('td')[0]?.textContent?.trim() ?? ''))
}

async function createPost(request: APIRequestContext, headers: Record<string, string>, title: string, status = 'draft') {
  const response = await request.post('/api/blog', { data: { title, content: `Body of ${title}.`, status }, headers })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { data: { id: string; slug: string } }).data
}

// A real image, made here: an RGB PNG of `width` x `height` red pixels.
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}
function redPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8 bits, RGB, deflate, no filter, no interlace
  const line = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0xff, 0, 0]))])
  const pixels = Buffer.concat(Array.from({ length: height }, () => line))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

test.describe('Blog Management, more', () => {
  test('more than 10 posts: the table shows 10 with numbered pages, and page 2 the rest', async ({ page, request }) => {
    const prefix = `Paged post ${stamp()}`
    const headers = await adminHeaders(request)
    const titles: string[] = []
    const ids: string[] = []
    for (let n = 1; n <= 12; n++) {
      titles.push(`${prefix} #${n}`)
      ids.push((await createPost(request, headers, `${prefix} #${n}`)).id)
    }
    await signInAsAdmin(page)
    await gotoHydrated(page, `/admin/blog?search=${encodeURIComponent(prefix)}`)
    const pages = page.getByRole('navigation', { name: 'Blog post pages' })
    await expect(page.getByRole('table', { name: 'Blog posts' }).locator('tbody tr')).toHaveCount(10)
    await expect(pages.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page')
    await expect(pages.getByRole('link', { name: /^Page \d+$/ })).toHaveCount(2)
    const first = await firstCells(page, 'Blog posts')
    // Newest first: #12 down to #3.
    expect(first).toEqual(titles.slice(2).reverse())

    await pages.getByRole('link', { name: 'Page 2' }).click()
    await expect(page).toHaveURL(/\/admin\/blog\?search=Paged(\+|%20)post.*&page=2$/)
    await expect(page.getByRole('table', { name: 'Blog posts' }).locator('tbody tr')).toHaveCount(2)
    await expect(pages.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page')
    expect(await firstCells(page, 'Blog posts')).toEqual([titles[1], titles[0]])
    // The search survives paging: back to page 1 through the link, not the unfiltered list.
    await pages.getByRole('link', { name: 'Previous' }).click()
    await expect(page).toHaveURL(/search=Paged(\+|%20)post.*&page=1$/)
    await expect(page.getByRole('table', { name: 'Blog posts' }).locator('tbody tr')).toHaveCount(10)

    for (const id of ids) expect((await request.delete(`/api/blog/${id}`, { headers })).status()).toBe(200)
  })

  test('a cover image uploads from the dialog, is served from /uploads/covers/ and shown on the public post; other files are refused', async ({
    page,
    request,
    consoleErrors,
  }) => {
    consoleErrors.allowHttpStatus(400, '/api/uploads/covers') // the text file dressed as a PNG
    const title = `Cover post ${stamp()}`
    const png = redPng(24, 16)
    await signInAsAdmin(page)
    await gotoHydrated(page, `/admin/blog?search=${encodeURIComponent(title)}`)
    await page.getByRole('button', { name: 'New Post' }).click()
    const dialog = page.getByRole('dialog', { name: 'New Post' })
    await dialog.getByLabel('Title').fill(title)
    await dialog.getByLabel('Content').fill('A post with a picture.')
    await expect(dialog.getByRole('img', { name: 'Cover preview' })).toHaveCount(0)
    await dialog.getByLabel('Upload cover').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: png })
    const preview = dialog.getByRole('img', { name: 'Cover preview' })
    await expect(preview).toHaveAttribute('src', /^\/uploads\/covers\/[0-9a-f-]{36}\.png$/)
    const coverUrl = (await preview.getAttribute('src')) as string
    await expect(dialog.getByText('Replace cover')).toBeVisible()
    await dialog.getByRole('button', { name: 'Create Post' }).click()
    await expect(toasts(page).getByText('Post created')).toBeVisible()

    // The stored file is ours, byte for byte, with its type.
    const served = await request.get(coverUrl)
    expect(served.status()).toBe(200)
    expect(served.headers()['content-type']).toContain('image/png')
    expect(Buffer.compare(await served.body(), png)).toBe(0)

    // Edit: the cover is kept; a text file named .png is refused by the server, a .txt by the page.
    await row(page, title)
      .getByRole('button', { name: `Edit ${title}` })
      .click()
    const edit = page.getByRole('dialog', { name: 'Edit Post' })
    await expect(edit.getByRole('img', { name: 'Cover preview' })).toHaveAttribute('src', coverUrl)
    await edit
      .getByLabel('Replace cover')
      .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some notes, not an image\n') })
    const refused = toastWith(page, 'Error saving post', 'Covers must be PNG, JPEG or WebP images.')
    await expect(refused).toBeVisible()
    // The reason as the reader should see it, without the API's 'file:' field prefix.
    await expect(refused).not.toContainText('file:')
    await edit.getByLabel('Replace cover').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain text') })
    await expect(toastWith(page, 'Error saving post', 'Covers must be PNG, JPEG or WebP images of at most 2 MB.')).toBeVisible()
    await expect(edit.getByRole('img', { name: 'Cover preview' })).toHaveAttribute('src', coverUrl)
    await edit.getByLabel('Status').selectOption('published')
    await edit.getByRole('button', { name: 'Save Post' }).click()
    await expect(toasts(page).getByText('Post updated')).toBeVisible()
    await expect(row(page, title)).toContainText('Published')

    const slug = title.toLowerCase().replace(/ /g, '-')
    await gotoHydrated(page, `/blog/${slug}`)
    const cover = page.getByRole('img', { name: `Cover image for ${title}` })
    await expect(cover).toHaveAttribute('src', coverUrl)
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(24)

    const headers = await adminHeaders(request)
    const listed = await request.get(`/api/blog/${slug}`)
    const { id } = ((await listed.json()) as { data: { id: string } }).data
    expect((await request.delete(`/api/blog/${id}`, { headers })).status()).toBe(200)
  })

  test("deleting a post the API deleted meanwhile shows 'Error deleting post'", async ({ page, request, consoleErrors }) => {
    consoleErrors.allow(/status of 404/)
    const title = `Doomed post ${stamp()}`
    const headers = await adminHeaders(request)
    const { id } = await createPost(request, headers, title)
    await signInAsAdmin(page)
    // The blog tab has no live updates (no EventSource to stub), so the row stays on screen once deleted.
    await gotoHydrated(page, `/admin/blog?search=${encodeURIComponent(title)}`)
    await expect(row(page, title)).toBeVisible()
    expect((await request.delete(`/api/blog/${id}`, { headers })).status()).toBe(200)
    await expect(row(page, title)).toBeVisible()

    await row(page, title)
      .getByRole('button', { name: `Delete ${title}` })
      .click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Post' }).click()
    await expect(toastWith(page, 'Error deleting post', 'Post not found')).toBeVisible()
    await expect(toasts(page).getByText('Post deleted')).toHaveCount(0)
    await page.reload()
    await expect(page.getByText('No posts found matching your search.')).toBeVisible()
  })
})

test.describe('Service Inquiries, more', () => {
  test('more than 10 inquiries: numbered pages of 10, with the search kept', async ({ page, request }) => {
    const prefix = `Paged Client ${stamp()}`
    const names: string[] = []
    const ids: string[] = []
    for (let n = 1; n <= 11; n++) {
      names.push(`${prefix} ${String(n).padStart(2, '0')}`)
      ids.push(await postInquiry(request, { name: names.at(-1) as string }))
    }
    await signInAsAdmin(page)
    await page.addInitScript(() => {
      // Other specs post inquiries meanwhile; no live reloads while the pages are compared.
      window.EventSource = class {
        addEventListener() {}
        close() {}
      } as unknown as typeof EventSource
    })
    await gotoHydrated(page, `/admin/inquiries?search=${encodeURIComponent(prefix)}`)
    await expect(page.getByText('11 inquiries')).toBeVisible()
    const table = page.getByRole('table', { name: 'Service inquiries' })
    const pages = page.getByRole('navigation', { name: 'Inquiry pages' })
    await expect(table.locator('tbody tr')).toHaveCount(10)
    await expect(pages.getByRole('link', { name: /^Page \d+$/ })).toHaveCount(2)
    await expect(pages.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page')
    const nameCells = () =>
      table.locator('tbody tr').evaluateAll((rows) => rows.map((tr) => tr.querySelectorAll('td')[1]?.textContent ?? ''))
    expect(await nameCells()).toEqual(names.slice(1).reverse())

    await pages.getByRole('link', { name: 'Page 2' }).click()
    await expect(page).toHaveURL(/\/admin\/inquiries\?search=Paged(\+|%20)Client.*&page=2$/)
    await expect(table.locator('tbody tr')).toHaveCount(1)
    expect(await nameCells()).toEqual([names[0]])
    await expect(pages.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page')

    const headers = await adminHeaders(request)
    for (const id of ids) expect((await request.delete(`/api/contact/${id}`, { headers })).status()).toBe(200)
  })
})

test.describe('Subscriptions, more', () => {
  test("a plan a member is on cannot be deleted: 'Error deleting plan' names how many", async ({
    page,
    context,
    request,
    consoleErrors,
  }) => {
    consoleErrors.allow(/status of 409/)
    const name = `Crew ${stamp()}`
    const member = await createAccount(request, 'crew')
    const headers = await adminHeaders(request)
    const listed = await request.get(`/api/users?limit=1&search=${encodeURIComponent(member.email)}`, { headers })
    const userId = ((await listed.json()) as { data: { id: string }[] }).data[0]?.id
    expect(userId).toBeTruthy()

    await signInAsAdmin(page)
    await gotoHydrated(page, '/admin/subscriptions')
    await page.getByLabel('Plan Name').fill(name)
    await page.getByRole('button', { name: 'Add Plan' }).click()
    await expect(toasts(page).getByText('Plan added')).toBeVisible()

    // The plan's slug, as the Users tab offers it (a second tab; this one stays as it is).
    const users = await context.newPage()
    await gotoHydrated(users, `/admin?search=${encodeURIComponent(member.email)}`)
    const slug = await users.getByLabel(`Plan of ${member.email}`).locator('option', { hasText: name }).getAttribute('value')
    await users.close()
    expect(slug).toBeTruthy()
    const assigned = await request.put(`/api/users/${userId}`, { data: { plan: slug }, headers })
    expect(assigned.status(), await assigned.text()).toBe(200)

    // This page still counts 0 members; the server refuses all the same.
    const card = page
      .getByRole('list', { name: 'Subscription plans' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name, exact: true }) })
    await card.getByRole('button', { name: `Delete the ${name} plan` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Plan' }).click()
    await expect(toastWith(page, 'Error deleting plan', `1 member is on the ${name} plan: move them to another plan first.`)).toBeVisible()
    await expect(toasts(page).getByText('Plan deleted')).toHaveCount(0)
    await expect(card).toBeVisible()
    await page.reload()
    await expect(card).toContainText('1 member')
    await card.getByRole('button', { name: `Delete the ${name} plan` }).click()
    await expect(page.getByRole('dialog')).toContainText('1 member is on this plan: it cannot be deleted until they move.')
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()

    // Once the member moves, the same plan goes.
    expect((await request.put(`/api/users/${userId}`, { data: { plan: 'free' }, headers })).status()).toBe(200)
    await page.reload()
    await card.getByRole('button', { name: `Delete the ${name} plan` }).click()
    await expect(page.getByRole('dialog')).toContainText('It disappears from the pricing and billing pages.')
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Plan' }).click()
    await expect(toasts(page).getByText('Plan deleted')).toBeVisible()
    await expect(card).toHaveCount(0)
  })
})

test.describe('on a server of its own: the unprocessed badge and the default theme', () => {
  let server: IsolatedServer
  test.beforeAll(async () => {
    test.setTimeout(90_000)
    server = await startIsolatedServer()
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('the Service Inquiries tab counts unprocessed inquiries: up on a new one, down when one is processed', async ({ page, request }) => {
    // The server's demo inquiries are counted too: start from however many are unprocessed now.
    const pending = await request.get(`${server.url}/api/contact?processed=false&limit=1`, {
      headers: await adminHeaders(request, server.url),
    })
    const before = ((await pending.json()) as { total: number }).total
    const tabs = page.getByRole('navigation', { name: 'Admin sections' })
    const inquiriesTab = tabs.getByRole('link', { name: /^Service Inquiries/ })
    const expectCount = async (n: number) => {
      await expect(inquiriesTab).toHaveAccessibleName(n > 0 ? `Service Inquiries ${n} unprocessed` : 'Service Inquiries')
      if (n > 0) await expect(inquiriesTab.getByLabel(`${n} unprocessed`)).toHaveText(String(n))
    }
    await signIn(page, ADMIN, server.url)
    await gotoHydrated(page, `${server.url}/admin`)
    await expectCount(before)

    // On the Users tab: the new inquiry counts after a reload.
    const first = `Badge Client ${stamp()}`
    await postInquiry(request, { name: first }, server.url)
    await page.reload()
    await expectCount(before + 1)

    // On the inquiries tab, the next one raises the count live.
    await inquiriesTab.click()
    await expect(page).toHaveURL(`${server.url}/admin/inquiries`)
    await expect(row(page, first)).toBeVisible()
    const second = `Badge Client ${stamp()}`
    await postInquiry(request, { name: second }, server.url)
    await expect(row(page, second)).toBeVisible()
    await expectCount(before + 2)

    await row(page, first).getByLabel(`Inquiry from ${first} processed`).check()
    await expect(toasts(page).getByText('Marked as processed')).toBeVisible()
    await expectCount(before + 1)
    await row(page, second).getByLabel(`Inquiry from ${second} processed`).check()
    await expect(row(page, second)).toContainText('Processed')
    await expectCount(before)
    await page.reload()
    await expectCount(before)
  })

  test("'Default Theme' is the scheme of visitors without a choice of their own, and the audit log shows the change", async ({
    page,
    browser,
  }) => {
    const visitorTheme = async () => {
      const visitor = await browser.newContext()
      const home = await visitor.newPage()
      expect((await home.goto(`${server.url}/`))?.status()).toBe(200)
      const theme = await home.locator('html').getAttribute('class')
      expect((await visitor.cookies()).map((cookie) => cookie.name)).not.toContain('aether_theme')
      await visitor.close()
      return theme
    }
    expect(await visitorTheme()).toBe('dark') // the spec's default

    await signIn(page, ADMIN, server.url)
    await gotoHydrated(page, `${server.url}/admin/settings`)
    await expect(page.getByLabel('Default Theme')).toHaveValue('dark')
    await page.getByLabel('Default Theme').selectOption('light')
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect(toasts(page).getByText('Settings saved')).toBeVisible()
    expect(await visitorTheme()).toBe('light')

    await page.reload()
    await expect(page.getByLabel('Default Theme')).toHaveValue('light')
    const audit = page.locator('#audit-log')
    const entry = audit.getByRole('listitem').filter({ hasText: 'Changed System Settings: theme' }).first()
    await expect(entry).toBeVisible()
    await expect(entry).toContainText(ADMIN.email)
    await entry.getByText('Before and after').click()
    await expect(entry.locator('pre')).toContainText('"theme": "dark"')
    await expect(entry.locator('pre')).toContainText('"theme": "light"')

    await page.getByLabel('Default Theme').selectOption('dark')
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect(toasts(page).getByText('Settings saved')).toBeVisible()
    expect(await visitorTheme()).toBe('dark')
    await page.reload()
    await expect(audit.getByRole('listitem').filter({ hasText: 'Changed System Settings: theme' })).toHaveCount(2)
  })
})
