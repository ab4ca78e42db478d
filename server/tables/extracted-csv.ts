import type { DataRow, RowOutcome } from '#common/workflow-interpreter.ts'

/**
 * Extracted rows as CSV (RFC 4180): one column per field name in order of first appearance.
 * Cells that a spreadsheet would run as a formula (= + - @ at the start) get a leading quote.
 */
export function extractedAsCsv(rows: readonly Record<string, string | null>[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))]
  const cell = (value: string | null | undefined) => {
    if (value === null || value === undefined) return ''
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
  }
  const lines = [columns.map(cell).join(','), ...rows.map((row) => columns.map((column) => cell(row[column])).join(','))]
  return `${lines.join('\r\n')}\r\n`
}

/** A run's data rows with their outcomes as CSV (row, status, error, then the row's own columns): the run page's download. */
export function rowOutcomesAsCsv(rows: readonly DataRow[], outcomes: readonly RowOutcome[]): string {
  return extractedAsCsv(
    outcomes.map((outcome) => ({ row: String(outcome.row), status: outcome.status, error: outcome.error ?? '', ...rows[outcome.row - 1] })),
  )
}
