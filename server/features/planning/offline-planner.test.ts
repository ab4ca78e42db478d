import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { describeAlternative } from '#common/targets.ts'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { ACCOUNT, startPracticeSites, type PracticeSites } from '#server/testing/practice-sites.ts'
import { createExplorer } from './explorer.ts'
import { readInstructions } from './instructions.ts'
import { planOffline, type DraftPlan } from './offline-planner.ts'

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let sites: PracticeSites

beforeAll(async () => {
  sites = await startPracticeSites()
})
afterAll(async () => {
  await browsers.close()
  await sites?.close()
})

async function plan(description: string, start: string | null): Promise<DraftPlan> {
  return withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs: 5_000 },
    async ({ session, perform }) =>
      planOffline(readInstructions(description), createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 }), start),
    { timeLimitMs: 60_000 },
  )
}

/** Steps as a person reads them: 'type Field labelled “Email” = …'. */
const inWords = (steps: AutomationStep[]) =>
  steps.map((step) => {
    const target = 'target' in step && step.target?.[0] ? describeAlternative(step.target[0]) : ''
    switch (step.type) {
      case 'navigate':
        return `navigate ${new URL(step.url).pathname}`
      case 'type':
        return `type ${target} = ${step.text}`
      case 'select':
        return `select ${target} = ${step.value}`
      case 'extract':
        return `extract ${target} -> ${step.field}`
      case 'assertText':
        return `assert ${step.text}`
      case 'press':
        return `press ${step.key}${target ? ` in ${target}` : ''}`
      default:
        return `${step.type} ${target}`.trim()
    }
  })

describe('offline planner', () => {
  it('fills a form by its labels and sends it', async () => {
    const draft = await plan(
      'Type "Ada Lovelace" into Full name and ada@example.com into Email, choose Returns in the Topic drop-down, fill Message with Where is my parcel? and click Send message. Then check that "Thank you, Ada Lovelace" appears.',
      `${sites.url}/original/contact`,
    )
    expect(draft.notes).toEqual([])
    expect(inWords(draft.steps)).toEqual([
      'navigate /original/contact',
      'type Field labelled “Full name” = Ada Lovelace',
      'type Field labelled “Email” = ada@example.com',
      'select Field labelled “Topic” = Returns',
      'type Field labelled “Message” = Where is my parcel?',
      'click Button named “Send message”',
      'assert Thank you, Ada Lovelace',
    ])
  })

  it('signs in, searches, reads a table column and follows a link', async () => {
    const signIn = await plan(
      `log in as ${ACCOUNT.email} with password ${ACCOUNT.password}, then make sure the page says Welcome back`,
      `${sites.url}/original/signin`,
    )
    expect(signIn.notes).toEqual([])
    expect(inWords(signIn.steps).slice(1)).toEqual([
      `type Field labelled “Email” = ${ACCOUNT.email}`,
      `type Field labelled “Password” = ${ACCOUNT.password}`,
      'click Button named “Sign in”',
      'assert Welcome back',
    ])

    const products = await plan(
      'extract the Name column as product and the Price column as price, then click Next page',
      `${sites.url}/original/products`,
    )
    expect(products.notes).toEqual([])
    expect(inWords(products.steps).slice(1)).toEqual([
      'extract Column “Name” -> product',
      'extract Column “Price” -> price',
      'click Link named “Next page”',
    ])

    const search = await plan("search for 'jacket' and extract the prices", `${sites.url}/original/search`)
    expect(search.notes).toEqual([])
    expect(inWords(search.steps).slice(1, 3)).toEqual(['type Text field named “Search products” = jacket', 'click Button named “Search”'])
    expect(search.steps[3]).toMatchObject({ type: 'extract', field: 'prices', target: [{ by: 'css', selector: 'span.cost' }] })
  })

  it('says which part of the sentence it could not use, and never invents a target', async () => {
    const draft = await plan(
      'Go to /original/contact, fly to the moon, then click the Launch rocket button and type hello into Favourite colour',
      sites.url,
    )
    expect(inWords(draft.steps)).toEqual(['navigate /', 'navigate /original/contact'])
    expect(draft.notes).toEqual([
      expect.stringContaining('Could not use “fly to the moon”'),
      expect.stringContaining('Could not find “Launch rocket” on the page “Contact us”'),
      expect.stringContaining('Could not find “Favourite colour”'),
    ])
  })

  it('starts where the sentence says, marks a step that did not work and pictures every step', async () => {
    const draft = await plan(
      `Type "Ada" into Full name, then check that "Nothing like this" appears. Start at ${sites.url}/original/contact`,
      null,
    )
    expect(inWords(draft.steps)).toEqual([
      'navigate /original/contact',
      'type Field labelled “Full name” = Ada',
      'assert Nothing like this',
    ])
    expect(draft.tried.map((trial) => trial.problem)).toEqual([null, null, expect.stringContaining('Nothing like this')])
    for (const trial of draft.tried) expect(trial.picture).toMatch(/^data:image\/jpeg;base64,.{200,}/)
    // A quarter of the window: a few kilobytes, not a full screenshot.
    const bytes = Buffer.from((draft.tried[0]?.picture ?? '').split(',')[1] ?? '', 'base64')
    expect(bytes.length).toBeLessThan(40_000)
  })
})
