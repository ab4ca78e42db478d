import type { Page } from 'playwright-core'

// The panel a tab shows (WAI-ARIA tabs: the tabpanel its aria-controls names, else the nearest
// tabpanel beside its tab list), as a CSS path that finds exactly it: what 'read them' after
// 'in the Tags tab' reads inside.

/** The CSS path of the panel of the tab the selector finds, or null when it shows none. */
export async function tabPanelSelector(page: Page, tabSelector: string): Promise<string | null> {
  return page
    .evaluate((selector) => {
      const tab = document.querySelector(selector)
      if (!tab) return null
      const shown = (element: Element) => element.getBoundingClientRect().height > 0
      const controlled = tab.getAttribute('aria-controls')
      let panel: Element | null = controlled ? document.getElementById(controlled) : null
      for (let box = tab.parentElement; !panel && box; box = box.parentElement) {
        panel = [...box.querySelectorAll('[role=tabpanel]')].find((each) => !each.contains(tab) && shown(each)) ?? null
      }
      if (!panel) return null
      const steps: string[] = []
      for (let at: Element | null = panel; at && at !== document.body; at = at.parentElement) {
        const parent: Element | null = at.parentElement
        const same = parent ? [...parent.children].filter((child) => child.tagName === at?.tagName) : []
        steps.unshift(`${at.tagName.toLowerCase()}${same.length > 1 ? `:nth-of-type(${same.indexOf(at) + 1})` : ''}`)
      }
      return ['body', ...steps].join(' > ')
    }, tabSelector)
    .catch(() => null)
}
