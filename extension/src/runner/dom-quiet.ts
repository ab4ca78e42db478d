import { SETTLE_WATCHED_ATTRIBUTES as WATCHED_ATTRIBUTES } from '#common/settle-attributes.ts'

/** How long the page's elements must stay unchanged to count as settled, and the most one wait takes. */
export const DOM_QUIET = { quietMs: 300, maxMs: 3_000 } as const

/**
 * Waits until the document's elements stopped changing for `quietMs` (true), at most `maxMs`
 * (false), so the next step finds what an action made the page draw; never a fixed sleep. A page
 * that goes away (a click that loads another) ends the wait at once.
 */
export function waitForDomQuiet(doc: Document, options: { quietMs?: number; maxMs?: number } = {}): Promise<boolean> {
  const quietMs = options.quietMs ?? DOM_QUIET.quietMs
  const maxMs = options.maxMs ?? DOM_QUIET.maxMs
  const view = doc.defaultView ?? window
  return new Promise((resolve) => {
    const started = Date.now()
    let last = started
    let timer: ReturnType<typeof setTimeout> | undefined
    const observer = new view.MutationObserver(() => {
      last = Date.now()
    })
    const finish = (quiet: boolean) => {
      observer.disconnect()
      clearTimeout(timer)
      view.removeEventListener('pagehide', gone)
      resolve(quiet)
    }
    const gone = () => finish(false)
    const check = () => {
      const now = Date.now()
      if (now - last >= quietMs) return finish(true)
      if (now - started >= maxMs) return finish(false)
      timer = setTimeout(check, Math.max(10, Math.min(last + quietMs, started + maxMs) - now))
    }
    observer.observe(doc, { subtree: true, childList: true, characterData: true, attributeFilter: WATCHED_ATTRIBUTES })
    view.addEventListener('pagehide', gone)
    timer = setTimeout(check, Math.min(quietMs, maxMs))
  })
}
