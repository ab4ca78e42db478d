import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stepInWords } from '#common/step-words.ts'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { createExplorer } from './explorer.ts'
import { readInstructions } from './instructions.ts'
import { planOffline } from './offline-planner.ts'

// The offline planner on a site built unlike the practice sites: fields known only by their
// placeholders, a submit input, a checkbox inside its label, a select named by aria-label, posts
// as plain boxes with classes, a total in a <div>.

const PAGES: Record<string, string> = {
  '/': `<!doctype html><html><head><title>Weekly Digest</title></head><body>
<nav><a href="/archive">Archive</a> <a href="/subscribe">Subscribe</a></nav>
<h1>Weekly Digest</h1>
<div class="posts"><div class="post"><a class="post-link" href="/p/1">Why tests matter</a><span class="date">Mar 3, 2026</span></div>
<div class="post"><a class="post-link" href="/p/2">Shipping small</a><span class="date">Mar 10, 2026</span></div>
<div class="post"><a class="post-link" href="/p/3">On naming</a><span class="date">Mar 17, 2026</span></div></div>
<div id="total">3 posts</div></body></html>`,
  '/subscribe': `<!doctype html><html><head><title>Subscribe</title></head><body><h2>Join the list</h2>
<form action="/thanks"><input name="first" placeholder="First name"><input name="mail" type="email" placeholder="Your e-mail">
<label><input type="checkbox" name="agree"> I agree to the terms</label>
<select name="freq" aria-label="How often"><option>Weekly</option><option>Monthly</option></select>
<input type="submit" value="Subscribe now"></form></body></html>`,
  '/thanks': `<!doctype html><html><head><title>Thanks</title></head><body><div class="msg">You're in! Check your inbox.</div></body></html>`,
}

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let server: Server
let site = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    const page = PAGES[(request.url ?? '/').split('?')[0] ?? '/']
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'Not found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await browsers.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const plan = (description: string) =>
  withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs: 5_000 },
    ({ session, perform }) =>
      planOffline(
        readInstructions(description),
        createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 }),
        `${site}/`,
      ),
    { timeLimitMs: 60_000 },
  )

describe('the offline planner on a site it was not made with', () => {
  it('fills a form known by placeholders, a checkbox, a named select and a submit input', async () => {
    const draft = await plan(
      'Click Subscribe, type Ada into the first name box and ada@example.com into the email, tick I agree to the terms, choose Monthly for how often and press Subscribe now, then check that "You\'re in" appears',
    )
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(stepInWords)).toEqual([
      'Click Link named “Subscribe” (+1 fallback)',
      'Type “Ada” into Text field named “First name” (+2 fallbacks)',
      'Type “ada@example.com” into Text field named “Your e-mail” (+2 fallbacks)',
      'Tick Field labelled “I agree to the terms” (+2 fallbacks)',
      'Choose “Monthly” in Drop-down named “How often” (+1 fallback)',
      'Click Button named “Subscribe now” (+1 fallback)',
      "Check that the page shows “You're in”",
    ])
  })

  it('reads repeated values by what they are, and a value by the name its box has', async () => {
    const posts = await plan('Collect the titles of all posts and their dates, then extract the post links as url')
    expect(posts.steps.slice(1)).toEqual([
      { type: 'extract', target: [{ by: 'css', selector: 'a.post-link' }], field: 'titles' },
      { type: 'extract', target: [{ by: 'css', selector: 'span.date' }], field: 'dates' },
      { type: 'extract', target: [{ by: 'css', selector: 'a.post-link' }], field: 'url', attribute: 'href' },
    ])
    const total = await plan('tell me the total')
    expect(total.steps[1]).toMatchObject({
      type: 'extract',
      field: 'total',
      target: [
        { by: 'text', text: '3 posts' },
        { by: 'css', selector: '#total' },
      ],
    })
  })
})
