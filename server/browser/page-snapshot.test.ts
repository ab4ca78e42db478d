import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeAlternative } from '#common/targets.ts'
import { startPracticeSites, type PracticeSites } from '#server/testing/practice-sites.ts'
import { openBrowserSession, type BrowserSession } from './browser-session.ts'
import { snapshotPage, type PageSnapshot } from './page-snapshot.ts'
import { createSharedBrowser } from './shared-browser.ts'
import { createTargetGuard } from './target-guard.ts'
import { resolveTarget } from './target-resolver.ts'

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let sites: PracticeSites
let session: BrowserSession

beforeAll(async () => {
  sites = await startPracticeSites()
  session = await openBrowserSession({ browser: await browsers.acquire(), guard: createTargetGuard({ policy: 'loopback' }) })
})
afterAll(async () => {
  await session?.close()
  browsers.release()
  await browsers.close()
  await sites?.close()
})

async function snapshotOf(path: string): Promise<PageSnapshot> {
  await session.page.goto(`${sites.url}${path}`)
  return snapshotPage(session.page)
}

const lead = (snapshot: PageSnapshot, predicate: (element: PageSnapshot['elements'][number]) => boolean) => {
  const element = snapshot.elements.find(predicate)
  return element ? describeAlternative(element.target[0] ?? { by: 'css', selector: '?' }) : null
}

describe('page snapshot', () => {
  it('lists what a person sees and suggests targets in their words, each checked to match exactly one element', async () => {
    const snapshot = await snapshotOf('/original/signin')
    expect(snapshot.title).toBe('Sign in')
    expect(lead(snapshot, (element) => element.label === 'Email')).toBe('Field labelled “Email”')
    expect(lead(snapshot, (element) => element.role === 'button')).toBe('Button named “Sign in”')
    expect(snapshot.elements.find((element) => element.role === 'heading')?.name).toBe('Sign in')
    for (const element of snapshot.elements.filter((candidate) => candidate.interactive)) expect(element.checked, element.name).toBe(true)
    // A password's value is never read.
    await session.page.getByLabel('Password').fill('secret-value')
    expect(JSON.stringify(await snapshotPage(session.page))).not.toContain('secret-value')
  })

  it('reads a table and a select, with positions on the page', async () => {
    const table = await snapshotOf('/original/products')
    const cells = table.elements.filter((element) => element.role === 'cell')
    expect(cells.map((cell) => cell.text)).toContain('Trail Runner Shoes')
    expect(cells.every((cell) => cell.box.width > 0 && cell.box.height > 0)).toBe(true)
    expect(lead(table, (element) => element.role === 'link' && element.name === 'Next page')).toBe('Link named “Next page”')

    const form = await snapshotOf('/original/contact')
    expect(form.elements.find((element) => element.tag === 'select')?.options).toEqual(['Order question', 'Returns', 'Other'])
  })

  it('suggests targets that still find the same elements after a redesign (names and labels kept)', async () => {
    const before = await snapshotOf('/original/contact')
    const wanted = ['Full name', 'Email', 'Topic', 'Message']
    const targets = wanted.map((label) => before.elements.find((element) => element.label === label)?.target)
    const send = before.elements.find((element) => element.role === 'button')?.target
    await session.page.goto(`${sites.url}/redesigned/contact`)
    for (const target of [...targets, send]) {
      if (!target) throw new Error('no target suggested')
      const found = await resolveTarget(session.page, target, { timeoutMs: 2_000, match: 'one' })
      expect('locator' in found && found.index, describeAlternative(target[0] ?? { by: 'css', selector: '?' })).toBe(0)
    }
  })

  it('keeps a snapshot bounded', async () => {
    await session.page.goto(`${sites.url}/original/products`)
    const small = await snapshotPage(session.page, { maxElements: 5 })
    expect(small.elements).toHaveLength(5)
    expect(small.truncated).toBe(true)
  })
})
