import { browser } from 'wxt/browser'
import { defineContentScript } from 'wxt/utils/define-content-script'
import type { BackgroundAnswer, BackgroundMessage, RecorderMessage, RecorderStopped } from '../messages.ts'
import { startRecorder, type Recorder } from '../recorder/event-recorder.ts'
import type { RecordedStep } from '../recorder/recording-steps.ts'

// The recorder in every page and frame: idle until the background says its tab is being recorded.
export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  allFrames: true,
  runAt: 'document_idle',
  main() {
    // The background loads this script again into tabs opened before the extension was installed.
    const loaded = globalThis as { aetherRecorderLoaded?: boolean }
    if (loaded.aetherRecorderLoaded) return
    loaded.aetherRecorderLoaded = true

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

    browser.runtime.onMessage.addListener((message: RecorderMessage, _sender, sendResponse) => {
      if (message.type === 'recorder/start') {
        start()
        sendResponse({ ok: true })
      } else if (message.type === 'recorder/stop') {
        sendResponse({ steps: stop() } satisfies RecorderStopped)
      }
    })
    void send({ type: 'recorder/ready' }).then((answer) => {
      if ((answer as BackgroundAnswer | undefined)?.ok && (answer as { recording?: boolean }).recording) start()
    })
  },
})
