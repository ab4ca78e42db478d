import { browser } from 'wxt/browser'
import { defineContentScript } from 'wxt/utils/define-content-script'
import type { BackgroundAnswer, BackgroundMessage, RecorderMessage, RecorderStopped } from '../messages.ts'
import { startRecorder, type Recorder } from '../recorder/event-recorder.ts'
import type { RecordedStep } from '../recorder/recording-steps.ts'

// The recorder in every page and frame: idle until the background says its tab is being recorded.
export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  allFrames: true,
  // Frames without an address of their own (about:blank, as rich text editors make) belong to their page's site.
  matchAboutBlank: true,
  runAt: 'document_idle',
  main(ctx) {
    let recorder: Recorder | null = null
    let held: RecordedStep[] | null = null
    const send = (message: BackgroundMessage) => browser.runtime.sendMessage(message).catch(() => undefined)
    const onStep = (step: RecordedStep) => (held ? held.push(step) : void send({ type: 'recorder/step', step }))
    const start = () => {
      recorder ??= startRecorder(window, onStep)
    }
    const stop = (): RecordedStep[] => {
      held = []
      recorder?.stop()
      recorder = null
      const steps = held
      held = null
      return steps
    }
    const onMessage = (message: RecorderMessage, _sender: unknown, sendResponse: (answer: unknown) => void) => {
      if (message.type === 'recorder/start') {
        start()
        sendResponse({ ok: true })
      } else if (message.type === 'recorder/stop') {
        sendResponse({ steps: stop() } satisfies RecorderStopped)
      }
    }

    browser.runtime.onMessage.addListener(onMessage)
    // A newer copy of this script (the extension updated, or the background loaded it into a tab
    // opened before the install) takes over: this one stops listening.
    ctx.onInvalidated(() => {
      browser.runtime.onMessage.removeListener(onMessage)
      recorder?.stop()
      recorder = null
    })
    void send({ type: 'recorder/ready' }).then((answer) => {
      if (!ctx.isInvalid && (answer as BackgroundAnswer | undefined)?.ok && (answer as { recording?: boolean }).recording) start()
    })
  },
})
