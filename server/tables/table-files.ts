import { read, utils, write } from '@e965/xlsx'
import { MAX_DATA_ROWS, MAX_XLSX_BYTES, rowsFromTable } from '#common/data-rows.ts'
import { ValidationError } from '#common/errors.ts'
import type { DataRow } from '#common/workflow-interpreter.ts'
import { extractedAsCsv } from './extracted-csv.ts'

// Tables as files (docs/decisions/046): what saveTable keeps and writeData writes (CSV, JSON or an
// Excel workbook), and a workbook's first sheet read as a run's data rows.

/** What a workbook may unpack to, so a small file cannot expand into gigabytes (a zip bomb). */
const MAX_UNPACKED_BYTES = 50_000_000
const MAX_ENTRIES = 2_000

export type TableFormat = 'csv' | 'json' | 'xlsx'

/** Extracted rows as a file's bytes: one column per field name in order of first appearance. */
export function tableAsFile(rows: readonly Record<string, string | null>[], format: TableFormat): Uint8Array {
  if (format === 'csv') return new TextEncoder().encode(extractedAsCsv(rows))
  if (format === 'json') return new TextEncoder().encode(`${JSON.stringify(rows, null, 2)}\n`)
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))]
  // Every cell is a text cell: a value that starts with = is shown, never calculated.
  const sheet = utils.aoa_to_sheet([columns, ...rows.map((row) => columns.map((column) => row[column] ?? ''))], { cellDates: false })
  const book = utils.book_new(sheet, 'Data')
  return new Uint8Array(write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer)
}

/**
 * A workbook's first sheet as data rows: its first row names the columns, each row after it is a
 * row, every cell as the spreadsheet shows it (a date as it is formatted, a formula as its last
 * result). Only .xlsx (Office Open XML) workbooks.
 */
export function rowsOfXlsx(bytes: Uint8Array): DataRow[] {
  if (bytes.length > MAX_XLSX_BYTES)
    throw new ValidationError(`The spreadsheet is larger than ${MAX_XLSX_BYTES / 1000} KB: save it as CSV, or split it.`)
  checkPacking(bytes)
  let table: unknown[][]
  try {
    const book = read(bytes, { type: 'buffer', dense: true, sheets: 0, sheetRows: MAX_DATA_ROWS + 2, cellFormula: false, cellHTML: false })
    const first = book.SheetNames[0]
    const sheet = first ? book.Sheets[first] : undefined
    if (!sheet) throw new ValidationError('The workbook has no sheet.')
    table = utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: false })
  } catch (error) {
    if (error instanceof ValidationError) throw error
    throw new ValidationError('The file could not be read as an Excel workbook (.xlsx).')
  }
  const text = (cell: unknown) => (cell === null || cell === undefined ? '' : String(cell))
  const [header, ...body] = table.map((cells) => cells.map(text))
  if (!header) throw new ValidationError('The sheet is empty: its first row names the columns, and each row after it is a row.')
  if (body.length > MAX_DATA_ROWS) throw new ValidationError(`A run takes at most ${MAX_DATA_ROWS.toLocaleString('en')} rows.`)
  return rowsFromTable(header, body)
}

/**
 * An .xlsx file is a zip archive: its central directory says what each entry unpacks to, read here
 * before anything is unpacked. Anything else (an old .xls, a CSV renamed) is refused.
 */
function checkPacking(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const notWorkbook = () => new ValidationError('The file is not an Excel workbook (.xlsx): save it as .xlsx or CSV.')
  if (bytes.length < 22 || view.getUint32(0, true) !== 0x04034b50) throw notWorkbook()
  // The end-of-central-directory record is in the last 64 KB + 22 bytes.
  let end = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 65_557); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at
      break
    }
  }
  if (end < 0) throw notWorkbook()
  const entries = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  if (entries > MAX_ENTRIES) throw notWorkbook()
  let unpacked = 0
  for (let entry = 0; entry < entries; entry++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw notWorkbook()
    unpacked += view.getUint32(at + 24, true)
    if (unpacked > MAX_UNPACKED_BYTES)
      throw new ValidationError(`The workbook unpacks to more than ${MAX_UNPACKED_BYTES / 1_000_000} MB: save it as CSV, or split it.`)
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
  }
}
