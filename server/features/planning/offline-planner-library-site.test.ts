import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stepInWords } from '#common/step-words.ts'
import type { Target } from '#common/targets.ts'
import { openBrowserSession } from '#server/browser/browser-session.ts'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { createTargetGuard } from '#server/browser/target-guard.ts'
import { resolveTarget } from '#server/browser/target-resolver.ts'
import { createExplorer } from './explorer.ts'
import { readInstructions } from './instructions.ts'
import { planOffline } from './offline-planner.ts'

// The offline planner on another site unlike the practice sites: a public library's pages. A
// newsletter sign-up whose checkbox is labelled by a <label for> after it and whose select's
// options are said in other words than the task's; a loans table whose headers are not the words
// a member uses ('the prices' under "Fee", 'the due dates' under "Return by"), cells without
// classes; a menu that opens on hover. What the planner cannot do (an element
// that is not there, an option the select does not offer), it must say plainly and plan nothing for.

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>.menu ul{display:none}.menu:hover ul{display:block}</style></head><body>
<header><a href="/">Riverside Library</a><nav class="menu" aria-label="Site"><span>Visit us</span><ul><li><a href="/hours">Opening hours</a></li></ul></nav>
<a href="/loans">My loans</a> <a href="/newsletter">Newsletter</a></header><main>${body}</main></body></html>`

const PAGES: Record<string, string> = {
  '/': page('Riverside Library', '<h1>Welcome to Riverside Library</h1><p>Books, films and a quiet place to read.</p>'),
  '/newsletter': page(
    'Newsletter',
    `<h1>Library news by e-mail</h1>
<form action="/newsletter/done">
  <p><label for="nl-mail">Your e-mail address</label><br><input id="nl-mail" name="mail" type="email" required></p>
  <p><label for="nl-freq">How often</label><br><select id="nl-freq" name="freq"><option value="w">Every week</option><option value="m">Once a month</option></select></p>
  <p><input type="checkbox" id="nl-events" name="events"> <label for="nl-events">Also tell me about events for children</label></p>
  <p><button>Sign me up</button></p>
</form>`,
  ),
  '/newsletter/done': page('Subscribed', '<p role="status">Thanks! Your first letter is on its way.</p>'),
  '/loans': page(
    'My loans',
    `<h1>My loans</h1><table><thead><tr><th>Title</th><th>Return by</th><th>Fee</th></tr></thead><tbody>
<tr><td>The Hobbit</td><td>2026-04-02</td><td>€0.00</td></tr>
<tr><td>Moby-Dick</td><td>2026-04-09</td><td>€1.50</td></tr>
<tr><td>Dune</td><td>2026-04-16</td><td>€0.50</td></tr></tbody></table>
<p><a href="/loans?renew=all">Renew all</a></p>`,
  ),
}

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let server: Server
let site = ''
beforeAll(async () => {
  server = createServer((request, response) => {
    const found = PAGES[(request.url ?? '/').split('?')[0] ?? '/']
    response.writeHead(found ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(found ?? 'Not found')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await browsers.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const plan = (description: string, path = '/') =>
  withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs: 5_000 },
    ({ session, perform }) =>
      planOffline(
        readInstructions(description),
        createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 }),
        `${site}${path}`,
      ),
    { timeLimitMs: 60_000 },
  )

/** What a planned extract step's target reads on the page at this path, as a run reads it. */
async function valuesRead(path: string, target: Target): Promise<string[] | null> {
  const session = await openBrowserSession({ browser: await browsers.acquire(), guard: createTargetGuard({ policy: 'loopback' }) })
  try {
    await session.page.goto(`${site}${path}`)
    const resolved = await resolveTarget(session.page, target, { timeoutMs: 2_000, match: 'any' })
    return 'locator' in resolved ? await resolved.locator.allInnerTexts() : null
  } finally {
    await session.close()
    browsers.release()
  }
}

describe('the offline planner on a library site', () => {
  it('signs up for a newsletter: a field, a select, a checkbox labelled after it, a button', async () => {
    const draft = await plan(
      'Open the Newsletter page, enter ada@example.com in the e-mail address field, choose Every week for how often, tick the events for children box and click Sign me up, then check that "Your first letter is on its way" appears',
    )
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(stepInWords)).toEqual([
      'Click Link named “Newsletter” (+1 fallback)',
      'Type “ada@example.com” into Field labelled “Your e-mail address” (+2 fallbacks)',
      'Choose “Every week” in Field labelled “How often” (+2 fallbacks)',
      'Tick Field labelled “Also tell me about events for children” (+2 fallbacks)',
      'Click Button named “Sign me up” (+1 fallback)',
      'Check that the page shows “Your first letter is on its way”',
    ])
  })

  it('says which options a select offers when the task names another, and plans nothing for it', async () => {
    const draft = await plan('Choose monthly in How often', '/newsletter')
    expect(draft.steps.map((step) => step.type)).toEqual(['navigate'])
    expect(draft.notes).toEqual([
      '“How often” offers no option “monthly” (it offers “Every week”, “Once a month”); that step was left out.',
    ])
  })

  it('reads table columns whose headers are not the words of the task, by those headers', async () => {
    const draft = await plan('Go to My loans and collect the prices and the due dates as due, then extract the titles')
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map(stepInWords)).toEqual([
      'Click Link named “My loans” (+1 fallback)',
      'Extract Column “Fee” (+1 fallback) as “prices”',
      'Extract Column “Return by” (+1 fallback) as “due”',
      'Extract Column “Title” as “titles”',
    ])
    const [fees, due, titles] = draft.steps.slice(2).map((step) => ('target' in step && step.target ? step.target : []))
    expect(await valuesRead('/loans', fees ?? [])).toEqual(['€0.00', '€1.50', '€0.50'])
    expect(await valuesRead('/loans', due ?? [])).toEqual(['2026-04-02', '2026-04-09', '2026-04-16'])
    expect(await valuesRead('/loans', titles ?? [])).toEqual(['The Hobbit', 'Moby-Dick', 'Dune'])
  })

  it('hovers to open a menu, goes back, and says plainly what the page does not have', async () => {
    const draft = await plan('Hover over Visit us, click Opening hours, then go back and click Donate')
    // The link is in a menu that only hovering opens: found once the pointer rests on it.
    expect(draft.steps.map((step) => step.type)).toEqual(['navigate', 'hover', 'click', 'goBack'])
    expect(draft.notes).toEqual(['Could not find “Donate” on the page “Riverside Library” (from “click Donate”); that step was left out.'])
  })
})
