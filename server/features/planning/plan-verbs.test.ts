import pino from 'pino'
import type { AutomationStep } from '#common/automation-steps.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { createStructuredAnswers } from '#server/features/ai/structured-answers.ts'
import { startFakeChatCompletions, type FakeChatCompletions } from '#server/testing/fake-chat-completions.ts'
import { promptOf, scriptedPlanner } from '#server/testing/scripted-model.ts'
import { startVerbSite } from '#server/testing/verb-site.ts'
import { createExplorer } from './explorer.ts'
import { readInstructions } from './instructions.ts'
import { planWithModel } from './model-planner.ts'
import { planOffline } from './offline-planner.ts'

// The verb steps planned from a sentence, offline and by the model, on a page with the controls
// they act on (server/testing/verb-site.ts).

const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
let site: Awaited<ReturnType<typeof startVerbSite>>
let model: FakeChatCompletions
beforeAll(async () => {
  site = await startVerbSite()
  model = await startFakeChatCompletions()
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
  await model?.close()
})

/** Steps with their target's first way only (the fallbacks are the snapshot's business). */
const firstWays = (steps: AutomationStep[]) =>
  steps.map((step) => ('target' in step && step.target ? { ...step, target: step.target[0] } : step))

function explore<T>(use: (explorer: ReturnType<typeof createExplorer>) => Promise<T>) {
  return withGuardedPage(
    { browsers, privateTargets: 'loopback', stepTimeoutMs: 3_000 },
    ({ session, perform }) => use(createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 })),
    { timeLimitMs: 60_000 },
  )
}

describe('planning the verbs', () => {
  it('plans ticks, hovering, clearing, waiting for things to go, dialogs and checks offline', async () => {
    const draft = await explore((explorer) =>
      planOffline(
        readInstructions(
          'Make sure Remember me is ticked and untick Newsletter. Hover over Account, clear City, then type 5 December 2026 into Start date and press Enter. Wait until "Loading…" disappears. Click Delete and accept the confirmation. Check that "Error" does not appear, check that Newsletter is not ticked, and accept the cookies.',
        ),
        explorer,
        `${site.url}/controls`,
      ),
    )
    expect(firstWays(draft.steps.slice(1))).toEqual([
      { type: 'check', target: { by: 'label', text: 'Remember me' }, checked: true },
      { type: 'check', target: { by: 'label', text: 'Newsletter' }, checked: false },
      { type: 'hover', target: { by: 'role', role: 'button', name: 'Account' } },
      { type: 'clear', target: { by: 'label', text: 'City' } },
      { type: 'type', target: { by: 'label', text: 'Start date' }, text: '5 December 2026' },
      // The key goes to the field just typed into.
      { type: 'press', key: 'Enter', target: { by: 'label', text: 'Start date' } },
      { type: 'wait', target: { by: 'text', text: 'Loading…' }, gone: true },
      // The answer is armed before the click that opens the dialog.
      { type: 'dialog', action: 'accept' },
      { type: 'click', target: { by: 'role', role: 'button', name: 'Delete' } },
      { type: 'assertText', text: 'Error', absent: true },
      { type: 'assertChecked', target: { by: 'label', text: 'Newsletter' }, checked: false },
    ])
    // No banner on this page: nothing to click, and it says so.
    expect(draft.notes).toEqual(['No cookie banner was showing (from “accept the cookies.”); no step was needed.'])
  })

  it('makes the verb steps the model chooses, and tells it about them', async () => {
    model.respondWith({
      reply: scriptedPlanner([
        { type: 'check', element: 'Remember me', checked: true },
        { type: 'assertCount', element: 'One', count: 1 },
        { type: 'dialog', action: 'dismiss' },
        { type: 'assertText', text: 'Error', not: true },
        { type: 'hover', element: 'Account', role: 'button' },
      ]),
    })
    const ai = createStructuredAnswers({ baseUrl: model.baseUrl, model: 'planner-test' })
    const draft = await explore((explorer) =>
      planWithModel({ description: 'Tick Remember me', start: `${site.url}/controls`, explorer, ai, pay: async () => {} }),
    )
    expect(promptOf(model.requests[0] as never)).toContain('check (ref, checked')
    expect(draft.notes).toEqual([])
    expect(draft.steps.slice(1).map((step) => ({ ...step, target: undefined }))).toEqual([
      { type: 'check', checked: true, target: undefined },
      { type: 'assertCount', count: 1, target: undefined },
      { type: 'dialog', action: 'dismiss', target: undefined },
      { type: 'assertText', text: 'Error', absent: true, target: undefined },
      { type: 'hover', target: undefined },
    ])
  })
})
