import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone

/**
 * The browser's IANA time zone, once the page runs in the browser; null on the server and while the
 * page hydrates, so the server's HTML and the first render agree (docs/decisions/036).
 */
export function useBrowserTimeZone(): string | null {
  return useSyncExternalStore(subscribe, browserTimeZone, () => null)
}
