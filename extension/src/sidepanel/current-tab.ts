import { browser } from 'wxt/browser'

/**
 * The tab the member is looking at: the active tab of the panel's window. When the panel is open
 * as a page of its own (a tab or window of the extension), the active tab of a browser window.
 */
export async function currentTab() {
  const own = browser.runtime.getURL('/')
  const isPage = (tab: { url?: string; id?: number }) => tab.id !== undefined && !tab.url?.startsWith(own)
  const [here] = await browser.tabs.query({ active: true, currentWindow: true })
  if (here && isPage(here)) return here
  return (await browser.tabs.query({ active: true, windowType: 'normal' })).find(isPage)
}
