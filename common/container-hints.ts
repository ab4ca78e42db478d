import type { ElementDescriber } from './element-description.ts'

/** A container an element sits in and words that tell it from the others (target-containers.ts). */
export interface ContainerHint {
  kind: 'row' | 'item' | 'card' | 'near'
  text: string
}

/**
 * Where a person would say an element sits when its own words do not single it out (docs/decisions/042):
 * its table row, list item or card (the smallest repeated block) with a short text of that
 * container no other container of its kind shows ('Invoice 42'), then the nearest words around it
 * ('next to “Pay the invoice”'). Best first; only hints, the server and the recorder check each
 * against the page. Self-contained (no imports, no outside values): the server sends its source
 * into pages with page.evaluate (server/browser/snapshot-script.ts), as elementDescriber's.
 */
export function containerHints(element: Element, describer: ElementDescriber, isCard: (element: Element) => boolean): ContainerHint[] {
  const MAX_TEXT = 80
  const lower = (text: string) => text.toLowerCase()
  /** The short texts inside the container, outside the element itself, in page order. */
  const textsOf = (container: Element): string[] => {
    const found: string[] = []
    const walk = (node: Node) => {
      for (let child = node.firstChild; child; child = child.nextSibling) {
        if (child === element || found.length >= 20) continue
        if (child.nodeType === Node.TEXT_NODE) {
          const text = describer.clean(child.nodeValue, 1_000)
          if (text && text.length <= MAX_TEXT && /[\p{L}\p{N}]/u.test(text) && !found.includes(text)) found.push(text)
        } else if (
          child.nodeType === Node.ELEMENT_NODE &&
          !['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes((child as Element).tagName)
        ) {
          walk(child)
        }
      }
      const shadow = (node as Element).shadowRoot
      if (shadow) walk(shadow)
    }
    walk(container)
    return found
  }
  /** The first text of the container that none of the others shows. */
  const telling = (container: Element, others: Element[]) =>
    textsOf(container).find(
      (text) => !others.some((other) => other !== container && lower(describer.fullTextOf(other)).includes(lower(text))),
    )
  const ancestors: Element[] = []
  for (let current = describer.parentOf(element); current && current.tagName !== 'BODY'; current = describer.parentOf(current))
    ancestors.push(current)

  const hints: ContainerHint[] = []
  const row = ancestors.find((ancestor) => ancestor.matches('tr, [role=row]'))
  if (row) {
    const table = row.closest('table, [role=table], [role=grid], [role=treegrid]') ?? row.parentElement
    const text = table ? telling(row, [...table.querySelectorAll('tr, [role=row]')]) : undefined
    if (text) hints.push({ kind: 'row', text })
  }
  const item = row ? null : ancestors.find((ancestor) => ancestor.matches('li, [role=listitem], option, [role=option]'))
  if (item) {
    const text = telling(item, [...(item.parentElement?.children ?? [])])
    if (text) hints.push({ kind: 'item', text })
  }
  if (!row && !item) {
    for (const card of ancestors.filter((ancestor) => isCard(ancestor))) {
      const siblings = [...(card.parentElement?.children ?? [])].filter((sibling) => sibling.tagName === card.tagName)
      const text = telling(card, siblings)
      if (text) {
        hints.push({ kind: 'card', text })
        break
      }
    }
  }
  // The nearest words around it: the first text of the smallest element around it that shows any.
  const near = ancestors.map((ancestor) => textsOf(ancestor)[0]).find((text) => text !== undefined)
  if (near && !hints.some((hint) => hint.text === near)) hints.push({ kind: 'near', text: near })
  return hints
}
