/**
 * The elements each kind of container may be (docs/decisions/042), written once for both
 * resolvers: Playwright (server/browser/container-locator.ts) and the extension's in-page
 * resolver (extension/src/recorder/page-containers.ts, with element.matches and isCard).
 * Plain CSS and XPath, not getByRole and not CSS `:has()`: on a page of a thousand rows those
 * take seconds in Playwright's selector engine, these milliseconds.
 */
export const ROW_SELECTOR = 'tr, [role=row]'
export const ITEM_SELECTOR = 'li, [role=listitem], option, [role=option]'
export const DIALOG_SELECTOR = 'dialog, [role=dialog], [role=alertdialog]'
export const FORM_SELECTOR = 'form, [role=form]'

/** The tags a card may be: a block repeated next to a sibling of the same tag. */
export const CARD_TAGS = ['article', 'section', 'li', 'div', 'figure', 'a', 'tr', 'aside', 'details', 'fieldset', 'label', 'dd']

/** Cards as XPath (no shadow roots, as Playwright's XPath): a card tag whose next or previous element has the same tag. */
export const CARD_XPATH = `//*[${CARD_TAGS.map((tag) => `self::${tag}`).join(' or ')}][name() = name(preceding-sibling::*[1]) or name() = name(following-sibling::*[1])]`

/** The same test in the page, for one element (a function the server may also send into pages: self-contained). */
export function isCard(element: Element, tags: readonly string[] = CARD_TAGS): boolean {
  if (!tags.includes(element.tagName.toLowerCase()) || element.getRootNode() !== element.ownerDocument) return false
  return element.previousElementSibling?.tagName === element.tagName || element.nextElementSibling?.tagName === element.tagName
}
