import { MAX_EXTRACTED_ROWS } from './automations.ts'

/**
 * Extracted data is a table: every extract step fills a column named by its field with the text
 * (or attribute) of every element its selector matches, in page order; row i holds the i-th value
 * of each column. One element per extract gives one row with all the fields; '.product .name' and
 * '.product .price' give one row per product. Extracting the same field again appends below.
 */
export function createExtractedTable() {
  const columns = new Map<string, (string | null)[]>()
  return {
    add(field: string, values: (string | null)[]) {
      const column = columns.get(field) ?? []
      for (const value of values) {
        if (column.length >= MAX_EXTRACTED_ROWS) break
        column.push(value)
      }
      columns.set(field, column)
    },
    rows(): Record<string, string | null>[] {
      const fields = [...columns.keys()]
      const count = Math.min(MAX_EXTRACTED_ROWS, Math.max(0, ...[...columns.values()].map((column) => column.length)))
      return Array.from({ length: count }, (_, i) => Object.fromEntries(fields.map((field) => [field, columns.get(field)?.[i] ?? null])))
    },
  }
}

export type ExtractedTable = ReturnType<typeof createExtractedTable>
