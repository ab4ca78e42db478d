import { columnCells } from '#common/column-cells.ts'
import { elementDescriber } from '#common/element-description.ts'
import type { TargetAlternative } from '#common/targets.ts'
import { matchesOf } from '../recorder/page-matches.ts'
import { cssMatches } from './page-css.ts'
import { splitFrames } from './selector-parts.ts'

function byXPath(path: string, doc: Document): Element[] {
  const result = doc.evaluate(path, doc, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null)
  const found: Element[] = []
  for (let index = 0; index < result.snapshotLength; index++) {
    const node = result.snapshotItem(index)
    if (node instanceof (doc.defaultView ?? window).Element) found.push(node as Element)
  }
  return found
}

/** The documents of the same-site frames a CSS selector finds in these documents. */
function framesOf(selector: string, docs: Document[]): Document[] {
  return docs.flatMap((doc) =>
    cssMatches(selector, elementDescriber(doc), doc)
      .map((frame) => (frame as HTMLIFrameElement).contentDocument)
      .filter((inner): inner is Document => inner !== null && inner !== undefined),
  )
}

/**
 * The visible elements one alternative of a target finds in the page, the way the runners'
 * locators find them (server/browser/target-resolver.ts): words read by common/element-description.ts,
 * open shadow roots included, and for a CSS alternative written with frames
 * (`#pay >> internal:control=enter-frame >> …`) inside those frames. Throws for invalid CSS or XPath.
 */
export function alternativeMatches(alternative: TargetAlternative, doc: Document): Element[] {
  if (alternative.by === 'css' && alternative.selector.includes('internal:control=enter-frame')) {
    const { frames, inner } = splitFrames(alternative.selector)
    const docs = frames.reduce((within, frame) => framesOf(frame, within), [doc])
    return docs.flatMap((frameDoc) => alternativeMatches(inner, frameDoc))
  }
  const describer = elementDescriber(doc)
  const found = (() => {
    switch (alternative.by) {
      case 'css':
        return cssMatches(alternative.selector, describer, doc)
      case 'xpath':
        return byXPath(alternative.path, doc)
      case 'column':
        return byXPath(columnCells(alternative.header, alternative.exact ?? false), doc)
      default:
        return matchesOf(alternative, describer)
    }
  })()
  return found.filter((element) => describer.isVisible(element))
}
