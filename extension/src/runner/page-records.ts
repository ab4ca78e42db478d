import type { ExtractField } from '#common/automation-steps.ts'
import { columnCellOfRow } from '#common/column-cells.ts'
import type { ExtractedRecord } from '#common/extracted-table.ts'
import type { TargetAlternative } from '#common/targets.ts'
import { alternativeMatches } from './page-matches-all.ts'

type Read = (element: Element, attribute: string | null) => string | null

/** A part's elements inside one item, as the cloud's chained locators find them (server/browser/extract-action.ts). */
function partIn(item: Element, alternative: TargetAlternative): Element[] {
  const doc = item.ownerDocument
  if (alternative.by === 'column') {
    const result = doc.evaluate(
      columnCellOfRow(alternative.header, alternative.exact ?? false),
      item,
      null,
      XPathResult.ORDERED_NODE_SNAPSHOT_TYPE,
      null,
    )
    return Array.from({ length: result.snapshotLength }, (_, index) => result.snapshotItem(index)).filter(
      (node): node is Element => node instanceof (doc.defaultView ?? window).Element,
    )
  }
  return alternativeMatches(alternative, doc).filter((element) => element !== item && item.contains(element))
}

/** Each item as a record, one value per field (the first match of the part's first alternative that finds any); an item with no value at all (a header row) gives none. */
export function readRecords(items: Element[], fields: ExtractField[], read: Read): ExtractedRecord[] {
  const records = items.map((item) =>
    Object.fromEntries(
      fields.map((field) => {
        const attribute = field.attribute ?? null
        if (!field.part) return [field.name, read(item, attribute)]
        for (const alternative of field.part) {
          let found: Element[] = []
          try {
            found = partIn(item, alternative)
          } catch {
            continue
          }
          if (found[0]) return [field.name, read(found[0], attribute)]
        }
        return [field.name, null]
      }),
    ),
  )
  return records.filter((record) => Object.values(record).some((value) => value !== null && value !== ''))
}
