import { browser } from 'wxt/browser'
import { defineContentScript } from 'wxt/utils/define-content-script'
import type { RunnerMessage } from '../messages.ts'
import { waitForDomQuiet } from '../runner/dom-quiet.ts'
import { maskSecretFields, performInPage } from '../runner/page-actions.ts'

// The runner in every page's top frame: performs the steps of a run in this browser, one message
// each, as the side panel sends them (elements inside same-site frames are reached from here).
export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  main(ctx) {
    const onMessage = (message: RunnerMessage, _sender: unknown, sendResponse: (answer: unknown) => void) => {
      if (message?.type === 'runner/perform') {
        void performInPage(document, message.step, message.timeoutMs).then(sendResponse)
        return true
      }
      if (message?.type === 'runner/mask') {
        maskSecretFields(document, message.on)
        sendResponse(true)
        return
      }
      if (message?.type === 'runner/settle') {
        void waitForDomQuiet(document, { maxMs: message.maxMs }).then(sendResponse)
        return true
      }
    }
    browser.runtime.onMessage.addListener(onMessage)
    ctx.onInvalidated(() => browser.runtime.onMessage.removeListener(onMessage))
  },
})
