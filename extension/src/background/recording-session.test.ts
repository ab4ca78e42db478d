import { beforeEach, describe, expect, it } from 'vitest'
import { fakeBrowser } from 'wxt/testing/fake-browser'
import type { Target } from '#common/targets.ts'
import type { RecordedStep } from '../recorder/recording-steps.ts'

// WXT's in-memory browser (its testing kit) stands in for chrome.storage; the extension's storage
// module reads the browser when it loads, so it is imported after.
;(globalThis as { chrome?: unknown }).chrome = fakeBrowser
const { createRecordingSession } = await import('./recording-session.ts')
const { recordingItem } = await import('../storage/stored-items.ts')

const field: Target = [{ by: 'label', text: 'Full name' }]
const button: Target = [{ by: 'role', role: 'button', name: 'Save' }]
const typed = (text: string): RecordedStep => ({ type: 'type', target: field, text })
const PAGE = 'https://shop.example/cart'

/** The recorders of the tabs, as the session reaches them; they hold `held` until stopped. */
function tabs(held: RecordedStep[] = []) {
  const calls: string[] = []
  return {
    calls,
    failStart: false,
    async start(tabId: number) {
      calls.push(`start ${tabId}`)
      if (this.failStart) throw new Error('Cannot access contents of the page')
    },
    async stop(tabId: number) {
      calls.push(`stop ${tabId}`)
      return held
    },
  }
}

beforeEach(() => {
  fakeBrowser.reset()
})

describe('the recording session', () => {
  it('starts with the page the tab shows, takes steps only from the recorded tab, one per field', async () => {
    const recorders = tabs()
    const session = createRecordingSession(recorders)
    await session.start(7, PAGE)
    expect(recorders.calls).toEqual(['start 7'])
    await Promise.all([
      session.addStep(7, typed('A')),
      session.addStep(8, { type: 'click', target: button }),
      session.addStep(undefined, { type: 'click', target: button }),
    ])
    await session.addStep(7, typed('Ada'))
    await session.addStep(7, { type: 'click', target: button })
    expect(await session.isRecording(7)).toBe(true)
    expect(await session.isRecording(8)).toBe(false)
    expect((await recordingItem.getValue())?.steps).toEqual([
      { type: 'navigate', url: PAGE },
      { type: 'type', target: field, text: 'Ada' },
      { type: 'click', target: button },
    ])
  })

  it('adds a step for a page the member opened, none for one a click opened', async () => {
    const session = createRecordingSession(tabs())
    await session.start(7, PAGE)
    await session.addStep(7, { type: 'click', target: button })
    await session.navigated(7, { frameId: 0, url: `${PAGE}/checkout`, transitionType: 'link', transitionQualifiers: [] })
    await session.navigated(8, { frameId: 0, url: 'https://other.example/', transitionType: 'typed', transitionQualifiers: [] })
    await session.navigated(7, {
      frameId: 0,
      url: 'https://shop.example/help',
      transitionType: 'typed',
      transitionQualifiers: ['from_address_bar'],
    })
    // Opening another address straight after: only the last one is worth going to.
    await session.navigated(7, {
      frameId: 0,
      url: 'https://shop.example/orders',
      transitionType: 'auto_bookmark',
      transitionQualifiers: [],
    })
    expect((await recordingItem.getValue())?.steps).toEqual([
      { type: 'navigate', url: PAGE },
      { type: 'click', target: button },
      { type: 'navigate', url: 'https://shop.example/orders' },
    ])
  })

  it('stops with what the recorders still held, and goes on in another tab later', async () => {
    const recorders = tabs([typed('Ada Lovelace')])
    const session = createRecordingSession(recorders)
    await session.start(7, PAGE)
    await session.addStep(7, typed('Ada'))
    await session.stop()
    expect(await recordingItem.getValue()).toMatchObject({
      status: 'stopped',
      tabId: null,
      steps: [
        { type: 'navigate', url: PAGE },
        { type: 'type', target: field, text: 'Ada Lovelace' },
      ],
    })
    expect(await session.isRecording(7)).toBe(false)

    await session.start(9, 'https://shop.example/orders')
    const recording = await recordingItem.getValue()
    expect(recording?.status).toBe('recording')
    expect(recording?.steps.map((step) => step.type)).toEqual(['navigate', 'type', 'navigate'])
    expect(recorders.calls).toEqual(['start 7', 'stop 7', 'start 9'])
  })

  it('keeps an unfinished recording when the browser restarts or the tab closes', async () => {
    const session = createRecordingSession(tabs())
    await session.start(7, PAGE)
    await session.browserStarted()
    expect(await recordingItem.getValue()).toMatchObject({ status: 'stopped', tabId: null, steps: [{ type: 'navigate', url: PAGE }] })

    await session.start(3, PAGE)
    await session.tabClosed(4)
    expect((await recordingItem.getValue())?.status).toBe('recording')
    await session.tabClosed(3)
    expect((await recordingItem.getValue())?.status).toBe('stopped')
    await session.discard()
    expect(await recordingItem.getValue()).toBeNull()
  })

  it('does not record a page the browser keeps to itself, and says why', async () => {
    const recorders = tabs()
    recorders.failStart = true
    const session = createRecordingSession(recorders)
    await expect(session.start(7, 'chrome://settings')).rejects.toThrow('Cannot access contents of the page')
    expect(await recordingItem.getValue()).toBeNull()
  })
})
