import { ValidationError } from './errors.ts'
import type { DataRow, RowOutcome } from './workflow-interpreter.ts'

// A run's data (docs/decisions/046): a table a "for each row" block goes through a row at a time.
// It comes as CSV text (a file or pasted rows), as JSON rows (the API), or as an earlier run's
// extracted table; whichever way, it is checked here and stored with the run.

/** The most rows one run may take, whatever the plan (plans may allow fewer). */
export const MAX_DATA_ROWS = 10_000
export const MAX_DATA_COLUMNS = 50
export const MAX_CELL_LENGTH = 2000
/** The most characters of CSV a run is started with (the API takes 1 MB of JSON). */
export const MAX_CSV_LENGTH = 1_000_000
/** The largest Excel workbook (.xlsx) a run takes as its data; as base64 it fits the API's 1 MB. */
export const MAX_XLSX_BYTES = 700_000
export const MAX_XLSX_BASE64_LENGTH = Math.ceil(MAX_XLSX_BYTES / 3) * 4

/**
 * A column's name as `{{row.…}}` names it: what the header says, with every run of characters
 * other than letters, digits and _ made one _ ('First name' → First_name, 'e-mail' → e_mail), and
 * a leading digit given a _ ('2nd' → _2nd). Empty headers are column_1, column_2….
 */
export function columnKey(header: string, position: number): string {
  const key = header
    .trim()
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64)
  if (!key) return `column_${position + 1}`
  return /^[0-9]/.test(key) ? `_${key}`.slice(0, 64) : key
}

/**
 * CSV as RFC 4180 writes it (what spreadsheets export): fields split by commas (or by semicolons
 * or tabs, when the header line has more of those), quoted fields may hold separators, line breaks
 * and doubled quotes; CRLF or LF line ends; a byte-order mark is dropped. The first line names the
 * columns. Blank lines are left out.
 */
export function parseCsv(text: string): DataRow[] {
  if (text.length > MAX_CSV_LENGTH)
    throw new ValidationError(`The CSV is too long: at most ${MAX_CSV_LENGTH.toLocaleString('en')} characters.`)
  const source = text.replace(/^\uFEFF/, '')
  const separator = separatorOf(source)
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  let fieldStarted = false
  const endField = () => {
    record.push(field)
    field = ''
    fieldStarted = false
  }
  const endRecord = () => {
    endField()
    if (record.some((cell) => cell.trim() !== '')) records.push(record)
    record = []
    if (records.length > MAX_DATA_ROWS + 1) throw new ValidationError(`A run takes at most ${MAX_DATA_ROWS.toLocaleString('en')} rows.`)
  }
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"'
        i += 1
      } else if (char === '"') quoted = false
      else field += char
      continue
    }
    if (char === '"' && !fieldStarted && field === '') {
      quoted = true
      fieldStarted = true
    } else if (char === separator) endField()
    else if (char === '\n') endRecord()
    else if (char === '\r') {
      if (source[i + 1] === '\n') i += 1
      endRecord()
    } else {
      field += char
      fieldStarted = true
    }
  }
  if (quoted) throw new ValidationError('The CSV has a quoted field that is never closed.')
  if (field !== '' || record.length > 0) endRecord()
  const [header, ...body] = records
  if (!header) throw new ValidationError('The CSV is empty: its first line names the columns, and each line after it is a row.')
  return rowsFromTable(header, body)
}

function separatorOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r|\n|$/))
  const counts = [',', ';', '\t'].map((separator) => ({ separator, count: firstLine.split(separator).length - 1 }))
  return counts.reduce((best, each) => (each.count > best.count ? each : best)).separator
}

/** Rows from a header and its lines of cells (CSV, a spreadsheet): each row keyed by the columns' keys. */
export function rowsFromTable(header: readonly string[], body: readonly (readonly string[])[]): DataRow[] {
  if (header.length > MAX_DATA_COLUMNS) throw new ValidationError(`The data has ${header.length} columns; at most ${MAX_DATA_COLUMNS}.`)
  const keys: string[] = []
  header.forEach((name, position) => {
    let key = columnKey(name, position)
    for (let n = 2; keys.includes(key); n++) key = `${columnKey(name, position)}_${n}`
    keys.push(key)
  })
  return checkRows(body.map((cells) => Object.fromEntries(keys.map((key, position) => [key, cells[position] ?? '']))))
}

/**
 * Checks rows however they came: a list of records of text (numbers and true/false are written as
 * text, empty cells as ''), within the limits, with column names `{{row.…}}` can name. Answers the
 * rows as they will be stored.
 */
export function checkRows(input: unknown): DataRow[] {
  if (!Array.isArray(input)) throw new ValidationError('The rows must be a list of records (column name → text).')
  if (input.length > MAX_DATA_ROWS)
    throw new ValidationError(
      `A run takes at most ${MAX_DATA_ROWS.toLocaleString('en')} rows; this data has ${input.length.toLocaleString('en')}.`,
    )
  return input.map((row, index) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      throw new ValidationError(`Row ${index + 1} must be a record of column name → text.`)
    const entries = Object.entries(row as Record<string, unknown>)
    if (entries.length > MAX_DATA_COLUMNS)
      throw new ValidationError(`Row ${index + 1} has ${entries.length} columns; at most ${MAX_DATA_COLUMNS}.`)
    const checked: DataRow = {}
    for (const [name, value] of entries) {
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) || name.startsWith('__'))
        throw new ValidationError(
          `Row ${index + 1}: the column name "${name.slice(0, 64)}" cannot be used as {{row.${name.slice(0, 64)}}}: letters, digits and _ (at most 64), starting with a letter or _.`,
        )
      const text =
        value === null || value === undefined
          ? ''
          : typeof value === 'string'
            ? value
            : typeof value === 'number' || typeof value === 'boolean'
              ? String(value)
              : null
      if (text === null) throw new ValidationError(`Row ${index + 1}, column ${name}: a cell must be text, a number or true/false.`)
      if (text.length > MAX_CELL_LENGTH)
        throw new ValidationError(`Row ${index + 1}, column ${name}: a cell holds at most ${MAX_CELL_LENGTH} characters.`)
      Object.defineProperty(checked, name, { value: text, enumerable: true, writable: true, configurable: true })
    }
    return checked
  })
}

/** The columns the rows have, in order of first appearance. */
export function columnsOf(rows: readonly DataRow[]): string[] {
  const columns = new Set<string>()
  for (const row of rows) for (const name of Object.keys(row)) columns.add(name)
  return [...columns]
}

/** 'Rows 7 and 12 of 20 failed; the other rows ran. Row 7: …' — null when no row failed. */
export function failedRowsInWords(outcomes: readonly RowOutcome[]): string | null {
  const failed = outcomes.filter((outcome) => outcome.status === 'failed')
  if (failed.length === 0) return null
  const numbers = failed.map((outcome) => outcome.row)
  const listed = numbers.length === 1 ? `Row ${numbers[0]}` : `Rows ${numbers.slice(0, 20).join(', ')}${numbers.length > 20 ? '…' : ''}`
  const first = failed[0]
  return `${listed} of ${outcomes.length} failed; the other rows ran. Row ${first?.row}: ${first?.error ?? 'failed'}`
}
