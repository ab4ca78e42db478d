import type { Locator, Page } from 'playwright-core'
import { CARD_XPATH, DIALOG_SELECTOR, FORM_SELECTOR, ITEM_SELECTOR, ROW_SELECTOR } from '#common/container-selectors.ts'
import type { TargetContainer } from '#common/targets.ts'

/** Every element that may be a container of this kind, before its text is looked at. */
function candidates(page: Page, kind: TargetContainer['kind']): Locator {
  switch (kind) {
    case 'row':
      return page.locator(ROW_SELECTOR)
    case 'item':
      return page.locator(ITEM_SELECTOR)
    case 'card':
      return page.locator(`xpath=${CARD_XPATH}`)
    case 'dialog':
      return page.locator(DIALOG_SELECTOR)
    case 'form':
      return page.locator(FORM_SELECTOR)
    case 'section':
    case 'near':
      return page.locator('*')
  }
}

/**
 * The candidates that show the container's words: a heading for a section; any text inside for the
 * rest, and for a dialog or form its name too ('the Billing form' is <form aria-label="Billing">).
 */
function showing(page: Page, container: TargetContainer, all: Locator): Locator {
  const { text, exact } = container
  if (text === undefined) return all
  if (container.kind === 'section') return all.filter({ has: page.getByRole('heading', { name: text, exact }) })
  const inside = exact ? all.filter({ has: page.getByText(text, { exact: true }) }) : all.filter({ hasText: text })
  if (container.kind === 'dialog')
    return inside.or(page.getByRole('dialog', { name: text, exact })).or(page.getByRole('alertdialog', { name: text, exact }))
  if (container.kind === 'form') return inside.or(page.getByRole('form', { name: text, exact }))
  return inside
}

/**
 * The elements `inner` finds inside the container (docs/decisions/042): the containers of its kind
 * that show its text and hold such an element, only the innermost of them (a list item inside a
 * list item does not make its parent count too), then the elements inside. A text two rows show
 * finds the element of both: the target is ambiguous, not the first.
 */
export function insideContainer(page: Page, container: TargetContainer, inner: Locator): Locator {
  const holding = showing(page, container, candidates(page, container.kind)).filter({ has: inner })
  return holding.filter({ hasNot: holding }).locator(inner)
}
