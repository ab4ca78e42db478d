import AxeBuilder from '@axe-core/playwright'
import { expect, gotoHydrated, signInAsMember, test } from './fixtures.ts'

// The seeded demo posts (server/db/seed-content.ts): three published, one draft.
const PUBLISHED = [
  'Automate Your Browser in 10 Minutes',
  'Five Workflows Every Small Team Should Automate',
  'How AI Makes Recorded Automations Robust',
]
const DRAFT = { title: 'Desktop Automation: What Is Coming Next', slug: 'desktop-automation-what-is-coming-next' }

test('/blog lists the published posts, newest first, and never the draft', async ({ page }) => {
  const response = await gotoHydrated(page, '/blog')
  expect(response?.status()).toBe(200)
  await expect(page).toHaveTitle('Blog | Aether')
  await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible()
  await expect(page.getByText('Explore articles, tutorials, and insights about our products and technology')).toBeVisible()
  const titles = page.getByRole('main').getByRole('heading', { level: 2 })
  await expect(titles).toHaveText(PUBLISHED)
  await expect(page.getByText(DRAFT.title)).toHaveCount(0)
  await expect(page.getByText('Read More')).toHaveCount(PUBLISHED.length)

  const card = page.getByRole('link', { name: /Automate Your Browser in 10 Minutes/ })
  await expect(card).toHaveAttribute('href', '/blog/automate-your-browser-in-10-minutes')
  const cover = card.getByRole('img', { name: 'Cover image for Automate Your Browser in 10 Minutes' })
  await expect(cover).toHaveAttribute('src', '/blog/covers/automate-your-browser-in-10-minutes.svg')
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(600)
  expect(await cover.evaluate((img) => img.getBoundingClientRect().height)).toBe(200)
  await expect(card.locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/)

  // The client router takes over from the card.
  await card.click()
  await expect(page).toHaveURL('/blog/automate-your-browser-in-10-minutes')
  await expect(page.getByRole('heading', { level: 1, name: 'Automate Your Browser in 10 Minutes' })).toBeVisible()
})

test('a post renders its Markdown: headings, lists, quotes, code and tables', async ({ page }) => {
  await gotoHydrated(page, '/blog/automate-your-browser-in-10-minutes')
  await expect(page).toHaveTitle('Automate Your Browser in 10 Minutes | Aether Blog')
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
  await expect(page.getByText('Alex Morgan')).toBeVisible()
  await expect(page.getByText(/^Published: [A-Z][a-z]+ \d{1,2}, \d{4}$/)).toBeVisible()
  await expect(page.getByText('Record a routine once, let Aether repeat it for you: a step-by-step first automation.')).toHaveCSS(
    'font-style',
    'italic',
  )
  const content = page.locator('article')
  await expect(content.getByRole('heading', { level: 2, name: 'Why start with the browser?' })).toBeVisible()
  await expect(content.locator('ol > li')).toHaveCount(3)
  await expect(content.locator('blockquote')).toContainText('give each automation a name')
  await expect(content.locator('pre code')).toContainText('"action": "navigate"')
  await expect(content.getByRole('img', { name: /Cover image for/ })).toBeVisible()

  await page.getByRole('link', { name: 'Back to Blog' }).last().click()
  await expect(page).toHaveURL('/blog')
})

test('a javascript: link in a post is rendered harmless; external links open safely', async ({ page }) => {
  await gotoHydrated(page, '/blog/how-ai-makes-recorded-automations-robust')
  const unsafe = page.getByRole('link', { name: 'Unsafe link' })
  await expect(unsafe).toBeVisible()
  const href = (await unsafe.getAttribute('href')) ?? ''
  expect(href.trim().toLowerCase()).not.toContain('javascript')
  expect(href).toBe('#')
  await unsafe.click()
  await expect(page).toHaveURL(/\/blog\/how-ai-makes-recorded-automations-robust#?$/)
  await expect(page.locator('article table')).toContainText('Selector and meaning')

  const external = page.getByRole('link', { name: 'selectors on MDN' })
  await expect(external).toHaveAttribute('target', '_blank')
  await expect(external).toHaveAttribute('rel', 'noopener noreferrer nofollow')
  await expect(page.getByRole('link', { name: 'your first automation' })).not.toHaveAttribute('target', '_blank')
})

test('a draft or missing post answers 404 with "Post not found"', async ({ page, consoleErrors }) => {
  for (const slug of [DRAFT.slug, 'no-such-post']) {
    consoleErrors.allowHttpStatus(404, `/blog/${slug}`)
    const response = await page.goto(`/blog/${slug}`)
    expect(response?.status()).toBe(404)
    await expect(page).toHaveTitle('Blog Post Not Found | Aether')
    await expect(page.getByRole('heading', { name: 'Post not found' })).toBeVisible()
    await expect(page.getByText(DRAFT.title)).toHaveCount(0)
  }
  await page.getByRole('link', { name: 'Back to Blog' }).click()
  await expect(page).toHaveURL('/blog')
})

test('the server HTML carries the meta tags, JSON-LD and cache headers without JavaScript', async ({ request }) => {
  const response = await request.get('/blog/automate-your-browser-in-10-minutes')
  expect(response.status()).toBe(200)
  expect(response.headers()['cache-control']).toBe('public, max-age=60, s-maxage=300')
  const html = await response.text()
  expect(html).toContain('<title>Automate Your Browser in 10 Minutes | Aether Blog</title>')
  expect(html).toContain('<meta property="og:type" content="article"/>')
  expect(html).toContain(
    '<meta name="description" content="Record a routine once, let Aether repeat it for you: a step-by-step first automation."/>',
  )
  expect(html).toMatch(/<link rel="canonical" href="http:\/\/localhost:\d+\/blog\/automate-your-browser-in-10-minutes"\/>/)
  expect(html).toMatch(/<meta property="og:url" content="http:\/\/localhost:\d+\/blog\/automate-your-browser-in-10-minutes"\/>/)
  expect(html).toMatch(
    /<meta property="og:image" content="http:\/\/localhost:\d+\/og\.png\?title=Automate%20Your%20Browser%20in%2010%20Minutes&amp;sig=[\w-]{22}"\/>/,
  )
  expect(html).toContain('<h2 class="mt-10 mb-4 text-2xl font-semibold tracking-tight">Why start with the browser?</h2>')
  // A kept page (docs/decisions/033) lists the block's hash in its CSP instead of a nonce.
  const jsonLd = /<script type="application\/ld\+json"(?: nonce="[^"]+")?>(.*?)<\/script>/.exec(html)?.[1]
  expect(JSON.parse(jsonLd ?? 'null')).toMatchObject({
    '@type': 'BlogPosting',
    headline: 'Automate Your Browser in 10 Minutes',
    author: { name: 'Alex Morgan' },
  })

  const list = await request.get('/blog')
  expect(list.headers()['cache-control']).toBe('public, max-age=60, s-maxage=300')
  const listHtml = await list.text()
  expect(listHtml).toContain('<title>Blog | Aether</title>')
  expect(listHtml).toContain('<meta name="description" content="AI, technology, and innovation"/>')
  expect(listHtml).toContain('<meta name="robots" content="index,follow"/>')
})

test('signed-in pages are never cacheable by a CDN', async ({ page }) => {
  await signInAsMember(page)
  const response = await page.request.get('/blog')
  expect(response.status()).toBe(200)
  expect(response.headers()['cache-control']).toBe('private, no-store')
})

test('sitemap.xml, robots.txt and the RSS feed are served with absolute URLs', async ({ request, baseURL }) => {
  const sitemap = await request.get('/sitemap.xml')
  expect(sitemap.status()).toBe(200)
  expect(sitemap.headers()['content-type']).toMatch(/^application\/xml/)
  const xml = await sitemap.text()
  expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/)
  for (const path of [
    '/',
    '/services',
    '/about',
    '/blog',
    '/careers',
    '/contact',
    '/legal',
    '/terms',
    '/privacy',
    '/cookies',
    '/acceptable-use',
  ]) {
    expect(xml).toContain(`<loc>${baseURL}${path}</loc>`)
  }
  expect(xml).toMatch(new RegExp(`<loc>${baseURL}/blog/automate-your-browser-in-10-minutes</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT`))
  expect(xml).not.toContain(DRAFT.slug)

  const robots = await request.get('/robots.txt')
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/)
  const text = await robots.text()
  expect(text).toContain('User-agent: *\nAllow: /\n')
  for (const path of ['/dashboard', '/settings', '/billing', '/admin', '/diagnostics', '/api/'])
    expect(text).toContain(`Disallow: ${path}\n`)
  expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`)

  const rss = await request.get('/blog/rss.xml')
  expect(rss.headers()['content-type']).toMatch(/^application\/rss\+xml/)
  const feed = await rss.text()
  expect(feed).toContain('<rss version="2.0"')
  expect(feed.match(/<item>/g)).toHaveLength(PUBLISHED.length)
  expect(feed).toContain(`<link>${baseURL}/blog/automate-your-browser-in-10-minutes</link>`)
  expect(feed).toMatch(/<pubDate>[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT<\/pubDate>/)
  expect(feed).not.toContain(DRAFT.title)
})

test('covers and social cards are images from our own server', async ({ request }) => {
  const cover = await request.get('/blog/covers/automate-your-browser-in-10-minutes.svg')
  expect(cover.status()).toBe(200)
  expect(cover.headers()['content-type']).toMatch(/^image\/svg\+xml/)
  expect(cover.headers()['cache-control']).toBe('public, max-age=86400')
  expect(await cover.text()).toContain('width="600" height="400"')
  expect((await request.get(`/blog/covers/${DRAFT.slug}.svg`)).status()).toBe(404)

  // The card a page names in og:image (signed: a title nobody signed is not drawn).
  const html = await (await request.get('/blog')).text()
  const image = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? ''
  expect(image).toMatch(/\/og\.png\?title=.+&sig=/)
  const card = await request.get(new URL(image).pathname + new URL(image).search)
  expect(card.status()).toBe(200)
  expect((await request.get('/og.png?title=Hello%20from%20Aether')).status()).toBe(404)
  expect(card.headers()['content-type']).toBe('image/png')
  expect(card.headers()['cache-control']).toBe('public, max-age=86400')
  const png = await card.body()
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  // IHDR: width and height, big-endian, at bytes 16-23.
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630])
})

test.describe('on a 360px screen', () => {
  test.use({ viewport: { width: 360, height: 740 } })

  test('the blog and a post with a table fit without horizontal scrolling and pass axe-core in both themes', async ({ page }) => {
    // Four pages measured and four axe-core runs: near 30 s with both cores busy.
    test.setTimeout(60_000)
    for (const theme of ['dark', 'light']) {
      if (theme === 'light') {
        const response = await page.request.post('/preferences', { form: { theme: 'light', returnTo: '/blog' }, maxRedirects: 0 })
        expect(response.status()).toBe(302)
      }
      for (const path of ['/blog', '/blog/how-ai-makes-recorded-automations-robust']) {
        await gotoHydrated(page, path)
        await expect(page.locator('html')).toHaveClass(theme)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
        const results = await new AxeBuilder({ page }).analyze()
        const summary = results.violations.map(
          (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        )
        expect(summary, `axe-core violations on ${path} (${theme})`).toEqual([])
      }
    }
  })
})
