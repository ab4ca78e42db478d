import { browser } from 'wxt/browser'
import { defineBackground } from 'wxt/utils/define-background'
import { createRecordingSession } from '../background/recording-session.ts'
import { startTabRecorders, stopTabRecorders } from '../background/tab-recorders.ts'
import type { BackgroundAnswer, BackgroundMessage } from '../messages.ts'
import { browserSessionItem } from '../storage/stored-items.ts'

// The service worker: owns the recording (background/recording-session.ts), hears the recorders in
// pages and the side panel, and sees which pages open in the recorded tab and how.
export default defineBackground(() => {
  const session = createRecordingSession({ start: startTabRecorders, stop: stopTabRecorders })

  void browser.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined)
  // The first start in a browser session (after a restart, or the extension reloading): no tab
  // records any more, and tab ids start again (onStartup alone misses the extension reloading).
  // Everything else waits for this, so a restored tab whose id an old recording names does not record.
  const started = browserSessionItem.getValue().then(async (running) => {
    if (running) return
    await session.browserStarted()
    await browserSessionItem.setValue(true)
  })
  browser.tabs.onRemoved.addListener((tabId) => void started.then(() => session.tabClosed(tabId)))
  browser.webNavigation.onCommitted.addListener((details) => void started.then(() => session.navigated(details.tabId, details)))

  async function answer(message: BackgroundMessage, tabId: number | undefined): Promise<BackgroundAnswer> {
    await started
    switch (message.type) {
      case 'recording/start': {
        const tab = await browser.tabs.get(message.tabId)
        await session.start(message.tabId, tab.url)
        return { ok: true }
      }
      case 'recording/stop':
        await session.stop()
        return { ok: true }
      case 'recording/discard':
        await session.discard()
        return { ok: true }
      case 'recorder/ready':
        return { ok: true, recording: await session.isRecording(tabId) }
      case 'recorder/step':
        await session.addStep(tabId, message.step)
        return { ok: true }
    }
  }

  browser.runtime.onMessage.addListener((message: BackgroundMessage, sender, sendResponse) => {
    answer(message, sender.tab?.id).then(sendResponse, (error: unknown) =>
      sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies BackgroundAnswer),
    )
    return true
  })
})
