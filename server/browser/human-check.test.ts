import pino from 'pino'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { humanCheckOn } from './human-check.ts'
import { createSharedBrowser } from './shared-browser.ts'

// The checks a run asks a person to get past (docs/decisions/059, amended): visible CAPTCHA
// widgets by their provider's frame or class, and pages that ask for a human in words; not the
// invisible ones, and not a page that merely talks about robots.

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let browser: Browser
let page: Page

beforeAll(async () => {
  browser = await browsers.acquire()
  // No request leaves: the frames' addresses are all that is looked at.
  const context = await browser.newContext({ offline: true })
  page = await context.newPage()
})
afterAll(async () => {
  await page?.context().close()
  browsers.release()
  await browsers.close()
})

const on = async (html: string, title = 'Shop') => {
  await page.setContent(`<!doctype html><title>${title}</title><body>${html}</body>`)
  return humanCheckOn(page)
}

describe('humanCheckOn', () => {
  it('names a visible check by its provider’s frame, its widget or what it asks', async () => {
    expect(await on('<iframe src="https://newassets.hcaptcha.com/captcha/v1/x" width="300" height="80"></iframe>')).toBe('an hCaptcha')
    expect(await on('<iframe src="https://www.google.com/recaptcha/api2/anchor?k=x&size=normal" width="304" height="78"></iframe>')).toBe(
      'a reCAPTCHA',
    )
    expect(await on('<iframe src="https://challenges.cloudflare.com/cdn-cgi/x" width="300" height="65"></iframe>')).toBe(
      'a Cloudflare check',
    )
    expect(await on('<div class="cf-turnstile" style="width:300px;height:65px"></div>')).toBe('a CAPTCHA')
    expect(await on('<h1>One more step</h1><p>Please verify you are human to continue.</p>')).toBe(
      'a check that asks “verify you are human”',
    )
    expect(await on('<p>Checking…</p>', 'Just a moment...')).toBe('a check that asks “Just a moment...”')
    expect(await on('<label><input type="checkbox"> I’m not a robot</label>')).toBe('a check that asks “I’m not a robot”')
  })

  it('finds none on ordinary pages, nor in invisible checks', async () => {
    expect(await on('<h1>Robots and humans</h1><p>Our robot vacuum cleans while you are out.</p>')).toBeNull()
    // reCAPTCHA v3 sits on many ordinary pages, and asks nobody anything.
    expect(
      await on('<iframe src="https://www.google.com/recaptcha/api2/anchor?k=x&size=invisible" width="256" height="60"></iframe>'),
    ).toBeNull()
    expect(await on('<div class="g-recaptcha" style="display:none"></div><p>Welcome back</p>')).toBeNull()
    expect(await on('<iframe src="https://js.hcaptcha.com/x" width="1" height="1"></iframe>')).toBeNull()
  })
})
