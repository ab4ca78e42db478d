import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { stepInWords } from '#common/step-words.ts'
import { navigationStep } from './navigation-step.ts'
import { withRecordedStep, type RecordedStep } from './recording-steps.ts'
import { openRecorderPages, type RecorderWindow } from './testing/recorder-page.ts'

// The recorder turns what a member does in a real page (Playwright's mouse and keyboard: trusted
// events, as a member's are) into steps, the way the content script and the background put them
// together: each recorded step added with withRecordedStep, navigations from navigationStep.

let pages: Awaited<ReturnType<typeof openRecorderPages>>

beforeAll(async () => {
  pages = await openRecorderPages()
})
afterAll(async () => {
  await pages?.close()
})

type Recording = RecorderWindow & { recorded: RecordedStep[]; recorder: { stop(): void } }

/** Starts the recorder in a page or frame, with a short typing pause so the test need not wait long. */
async function startRecording(where: Page | Frame, typingPauseMs = 300) {
  await where.evaluate((pauseMs) => {
    const view = window as unknown as Recording
    view.recorded = []
    view.recorder = view.aetherRecorder.startRecorder(window, (step) => view.recorded.push(step), { typingPauseMs: pauseMs })
  }, typingPauseMs)
}

/** Stops it (what was being typed is written) and hands over what it recorded. */
function stopRecording(where: Page | Frame): Promise<RecordedStep[]> {
  return where.evaluate(() => {
    const view = window as unknown as Recording
    view.recorder.stop()
    return view.recorded
  })
}

const assemble = (steps: RecordedStep[], start: AutomationStep[] = []) => steps.reduce(withRecordedStep, start)
const inWords = (steps: AutomationStep[]) => steps.map((step) => stepInWords(step).replace(/ \(\+\d fallbacks?\)/, ''))

describe('the recorder', () => {
  it('turns clicks, typing, a choice and Enter into steps: one per field, passwords as vault names', async () => {
    await pages.open('form.html')
    const { page } = pages
    const opened = navigationStep({ frameId: 0, url: page.url(), transitionType: 'typed', transitionQualifiers: ['from_address_bar'] })
    if (!opened) throw new Error('an address typed by the member is a step')
    await startRecording(page)

    await page.getByLabel('Full name').click()
    await page.keyboard.type('Ada')
    await page.waitForTimeout(600) // the member pauses: the step is written, then replaced as they go on
    await page.keyboard.type(' Lovelace')
    await page.getByLabel('Email address').click()
    await page.keyboard.type('ada@example.com')
    await page.getByLabel('Password').click()
    await page.keyboard.type('hunter2')
    await page.getByLabel('Plan').focus()
    // Walking the list with the keyboard is one choice: where it ends.
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowUp')
    await page.getByText('I accept the terms').click() // the words beside the box: the label passes the click on
    await page.getByRole('searchbox').click()
    await page.keyboard.type('recorder')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('#result').textContent()).toBe('Account created')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.getByText('Open the menu').click()

    const steps = assemble(await stopRecording(page), [opened])
    expect(inWords(steps)).toEqual([
      `Go to ${page.url()}`,
      'Type “Ada Lovelace” into Field labelled “Full name”',
      'Type “ada@example.com” into Field labelled “Email address”',
      'Type “{{secrets.site_127_0_0_1_password}}” into Field labelled “Password”',
      'Choose “Pro” in Field labelled “Plan”',
      'Click Field labelled “I accept the terms”',
      'Type “recorder” into Search field named “Search the docs”',
      'Press Enter in Search field named “Search the docs”',
      'Click Button named “Create account”',
      'Click Text “Open the menu”',
    ])
    expect(JSON.stringify(steps)).not.toContain('hunter2')
  })

  it('writes what is being typed when the member stops, and nothing for a page that opened by a click', async () => {
    await pages.open('form.html')
    const { page } = pages
    await startRecording(page, 60_000)
    await page.getByLabel('Notes').click()
    await page.keyboard.type('Line one')
    await page.keyboard.press('Enter') // a new line in a text area, not a key the page answers
    await page.keyboard.type('Line two')
    expect(inWords(assemble(await stopRecording(page)))).toEqual(['Type “Line one\nLine two” into Field labelled “Notes”'])

    const byLink = { frameId: 0, url: `${page.url()}#next`, transitionType: 'link', transitionQualifiers: [] }
    expect(navigationStep(byLink)).toBeNull()
    expect(navigationStep({ ...byLink, transitionType: 'reload' })).toBeNull()
    expect(navigationStep({ ...byLink, transitionType: 'auto_bookmark' })).toEqual({ type: 'navigate', url: byLink.url })
    expect(navigationStep({ ...byLink, transitionQualifiers: ['forward_back'] })).toEqual({ type: 'navigate', url: byLink.url })
    expect(navigationStep({ ...byLink, transitionType: 'typed', frameId: 3 })).toBeNull()
  })

  it('records in open shadow roots and in frames of the same site', async () => {
    await pages.open('shadow.html')
    const { page } = pages
    await startRecording(page)
    await page.getByLabel('Your email').click()
    await page.keyboard.type('ada@example.com')
    await page.getByRole('button', { name: 'Subscribe' }).click()
    expect(inWords(assemble(await stopRecording(page)))).toEqual([
      'Type “ada@example.com” into Field labelled “Your email”',
      'Click Button named “Subscribe”',
    ])

    await pages.open('frame.html')
    const frame = page.frame({ url: /frame-inner/ })
    if (!frame) throw new Error('no payment frame')
    await startRecording(frame)
    await page.frameLocator('#payment').getByLabel('Card number').click()
    await page.keyboard.type('4242 4242')
    await page.frameLocator('#payment').getByRole('button', { name: 'Pay' }).click()
    expect(inWords(assemble(await stopRecording(frame)))).toEqual([
      'Type “4242 4242” into Field labelled “Card number” in a frame',
      'Click Button named “Pay” in a frame',
    ])
  })
})
