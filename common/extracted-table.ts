import { MAX_EXTRACTED_ROWS } from './automations.ts'
import { short } from './step-log-words.ts'

/** One record an extract step with `fields` reads from one repeated item (a row, a card). */
export type ExtractedRecord = Record<string, string | null>

/**
 * Extracted data is a table: every extract step fills a column named by its field with the text
 * (or attribute) of every element its selector matches, in page order; row i holds the i-th value
 * of each column. One element per extract gives one row with all the fields; '.product .name' and
 * '.product .price' give one row per product. Extracting the same field again appends below.
 * Records (an extract step with `fields`) stay whole: they start on the first row below every one
 * of their columns so far, and a part an item lacks is an empty cell, never the next item's value.
 */
export function createExtractedTable() {
  const columns = new Map<string, (string | null)[]>()
  // Where each column's latest records start: the cells before it that addRecords filled are empty, not values.
  const recordsFrom = new Map<string, number>()
  const columnOf = (field: string) => {
    const column = columns.get(field) ?? []
    columns.set(field, column)
    return column
  }
  return {
    add(field: string, values: (string | null)[]) {
      const column = columnOf(field)
      for (const value of values) {
        if (column.length >= MAX_EXTRACTED_ROWS) break
        column.push(value)
      }
    },
    addRecords(fields: string[], records: ExtractedRecord[]) {
      const own = fields.map(columnOf)
      const start = Math.max(0, ...own.map((column) => column.length))
      const room = Math.max(0, MAX_EXTRACTED_ROWS - start)
      for (const column of own) while (column.length < start) column.push(null)
      for (const field of fields) recordsFrom.set(field, start)
      for (const record of records.slice(0, room)) fields.forEach((field, index) => own[index]?.push(record[field] ?? null))
    },
    /** Where each column ends now: what `since` compares with. */
    mark(): Map<string, number> {
      return new Map([...columns].map(([field, column]) => [field, column.length]))
    },
    /**
     * The values added since the mark, as rows of the columns they went into (`total` rows, the
     * first `keep` of them, each value at most `longest` characters).
     */
    since(mark: Map<string, number>, keep: number, longest = 2000): { fields: string[]; rows: ExtractedRecord[]; total: number } | null {
      const added = [...columns]
        .map(([field, column]) => [field, column.slice(Math.max(mark.get(field) ?? 0, recordsFrom.get(field) ?? 0))] as const)
        .filter(([, values]) => values.length > 0)
      if (added.length === 0) return null
      const total = Math.max(...added.map(([, values]) => values.length))
      const rows = Array.from({ length: Math.min(keep, total) }, (_, i) =>
        Object.fromEntries(added.map(([field, values]) => [field, values[i] == null ? null : short(values[i] as string, longest)])),
      )
      return { fields: added.map(([field]) => field), rows, total }
    },
    rows(): ExtractedRecord[] {
      const fields = [...columns.keys()]
      const count = Math.min(MAX_EXTRACTED_ROWS, Math.max(0, ...[...columns.values()].map((column) => column.length)))
      return Array.from({ length: count }, (_, i) => Object.fromEntries(fields.map((field) => [field, columns.get(field)?.[i] ?? null])))
    },
  }
}

export type ExtractedTable = ReturnType<typeof createExtractedTable>
