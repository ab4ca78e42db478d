/**
 * The blocks a 'card' container may be (docs/decisions/042): an element of these tags next to a
 * sibling of the same tag, the way cards, tiles and list entries repeat. One CSS selector, read
 * the same way by Playwright (server/browser/container-locator.ts) and by the extension's
 * in-page resolver (element.matches).
 */
const CARD_TAGS = ['article', 'section', 'li', 'div', 'figure', 'a', 'tr', 'aside', 'details', 'fieldset', 'label', 'dd']

export const CARD_SELECTOR = CARD_TAGS.map((tag) => `${tag}:has(+ ${tag}), ${tag} + ${tag}`).join(', ')

/** Dialogs and forms as both resolvers find them. */
export const DIALOG_SELECTOR = 'dialog, [role=dialog], [role=alertdialog]'
export const FORM_SELECTOR = 'form, [role=form]'
