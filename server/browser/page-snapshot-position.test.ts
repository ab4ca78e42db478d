import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeAlternative, type Target, type TargetAlternative } from '#common/targets.ts'
import { openBrowserSession, type BrowserSession } from './browser-session.ts'
import { confirmTarget } from './page-snapshot.ts'
import { createSharedBrowser } from './shared-browser.ts'
import { createTargetGuard } from './target-guard.ts'
import { locatorFor, resolveTarget } from './target-resolver.ts'

// A target found only by the page's structure (its CSS path or XPath) leads with its words and
// which of their matches it is ('the 2nd link “Bothy at Corrour”'), the structure kept behind;
// an element its words find alone needs no position, and among more than 20 matches a position
// is a guess, so the structure keeps the lead.

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let session: BrowserSession

beforeAll(async () => {
  session = await openBrowserSession({ browser: await browsers.acquire(), guard: createTargetGuard({ policy: 'loopback' }) })
})
afterAll(async () => {
  await session?.close()
  browsers.release()
  await browsers.close()
})

const show = (html: string) => session.page.setContent(`<!doctype html><html><body>${html}</body></html>`)

/** The id of the one element the alternative finds now (null unless exactly one). */
async function idFoundBy(alternative: TargetAlternative): Promise<string | null> {
  const locator = locatorFor(session.page, alternative)
  return (await locator.count()) === 1 ? locator.getAttribute('id') : null
}

/** The id of the element a run would act on with the target. */
async function idActedOn(target: Target): Promise<string | null> {
  const resolved = await resolveTarget(session.page, target, { timeoutMs: 2_000, match: 'one' })
  return 'locator' in resolved ? resolved.locator.getAttribute('id') : null
}

const NOTEBOOK = `<nav><a id="first" href="#/corrour-1">Bothy at Corrour</a> <a id="kettle" href="#/kettle">Kettle repair</a></nav>
<main><h1>Bothies</h1><p>Also: <a id="second" href="#/corrour-2">Bothy at Corrour</a></p></main>`

const bothy = { by: 'role', role: 'link', name: 'Bothy at Corrour' } as const

describe('a target found only by structure', () => {
  it('leads with its words and its position among their matches, the CSS path behind', async () => {
    await show(NOTEBOOK)
    for (const [id, selector, nth] of [
      ['first', 'nav > a:nth-child(1)', 1],
      ['second', 'main > p > a', 2],
    ] as const) {
      const target = await confirmTarget(session.page, [bothy, { by: 'text', text: 'Bothy at Corrour' }, { by: 'css', selector }])
      expect(target?.[0], id).toEqual({ ...bothy, nth })
      expect(target?.at(-1), id).toEqual({ by: 'css', selector })
      expect(describeAlternative(target?.[0] as TargetAlternative)).toBe(`${nth === 1 ? '1st' : '2nd'} Link named “Bothy at Corrour”`)
      // The position finds exactly this link, and a run acts on it.
      expect(await idFoundBy(target?.[0] as TargetAlternative), id).toBe(id)
      expect(await idActedOn(target as Target), id).toBe(id)
    }
  })

  it('leads with its words and position when only an XPath finds it', async () => {
    await show(NOTEBOOK)
    const target = await confirmTarget(session.page, [bothy, { by: 'xpath', path: '//main//a' }])
    expect(target?.[0]).toEqual({ ...bothy, nth: 2 })
    expect(target).toContainEqual({ by: 'xpath', path: '//main//a' })
    expect(await idActedOn(target as Target)).toBe('second')
  })

  it('keeps a link its words find alone as it is, with no position', async () => {
    await show(NOTEBOOK)
    const kettle = { by: 'role', role: 'link', name: 'Kettle repair' } as const
    const target = await confirmTarget(session.page, [kettle, { by: 'css', selector: '#kettle' }])
    expect(target).toEqual([kettle, { by: 'css', selector: '#kettle' }])
    expect(target?.[0]).not.toHaveProperty('nth')
  })

  it('gives a position among up to 20 matches, and keeps the structure first past that', async () => {
    const links = (count: number) =>
      `<ul>${Array.from({ length: count }, (_, i) => `<li><a id="l${i + 1}" href="#/${i + 1}">Same</a></li>`).join('')}</ul>`
    const same = { by: 'role', role: 'link', name: 'Same' } as const

    await show(links(20))
    const twentieth = await confirmTarget(session.page, [same, { by: 'css', selector: 'li:nth-child(20) > a' }])
    expect(twentieth?.[0]).toEqual({ ...same, nth: 20 })
    expect(await idActedOn(twentieth as Target)).toBe('l20')

    await show(links(25))
    const css = { by: 'css', selector: 'li:nth-child(22) > a' } as const
    const twentySecond = await confirmTarget(session.page, [same, css])
    expect(twentySecond?.[0]).toEqual(css)
    expect(twentySecond?.some((alternative) => 'nth' in alternative)).toBe(false)
    expect(await idActedOn(twentySecond as Target)).toBe('l22')
  })
})
