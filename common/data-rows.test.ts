import { describe, expect, it } from 'vitest'
import { checkRows, columnKey, failedRowsInWords, MAX_DATA_ROWS, parseCsv } from './data-rows.ts'

describe('parseCsv', () => {
  it('reads quoted fields with separators, quotes and line breaks, CRLF or LF, and drops a byte-order mark and blank lines', () => {
    const csv = '\uFEFFName,Note,Qty\r\n"Lovelace, Ada","said ""hi""\nand left",3\r\n\r\nBabbage,,\n'
    expect(parseCsv(csv)).toEqual([
      { Name: 'Lovelace, Ada', Note: 'said "hi"\nand left', Qty: '3' },
      { Name: 'Babbage', Note: '', Qty: '' },
    ])
  })

  it('takes semicolons or tabs when the header has more of them, and gives headers names {{row.…}} can use', () => {
    expect(parseCsv('First name;e-mail;2nd\nAda;a@x.org;y')).toEqual([{ First_name: 'Ada', e_mail: 'a@x.org', _2nd: 'y' }])
    expect(parseCsv('a\tb\n1\t2')).toEqual([{ a: '1', b: '2' }])
    expect(parseCsv(',Name,Name\n1,2,3')).toEqual([{ column_1: '1', Name: '2', Name_2: '3' }])
  })

  it('says what is wrong with CSV it cannot read', () => {
    expect(() => parseCsv('')).toThrow('The CSV is empty: its first line names the columns, and each line after it is a row.')
    expect(() => parseCsv('a\n"open')).toThrow('The CSV has a quoted field that is never closed.')
    expect(() => parseCsv(`a\n${'1\n'.repeat(MAX_DATA_ROWS + 1)}`)).toThrow('A run takes at most 10,000 rows.')
  })
})

describe('checkRows', () => {
  it('keeps text, writes numbers and true/false as text, empty cells as empty', () => {
    expect(checkRows([{ a: 1, b: true, c: null, d: 'x' }])).toEqual([{ a: '1', b: 'true', c: '', d: 'x' }])
  })

  it('refuses what is not a list of records of text, and names the row and column', () => {
    expect(() => checkRows({})).toThrow('The rows must be a list of records (column name → text).')
    expect(() => checkRows([[1]])).toThrow('Row 1 must be a record of column name → text.')
    expect(() => checkRows([{ ok: 'x' }, { 'first name': 'x' }])).toThrow(
      'Row 2: the column name "first name" cannot be used as {{row.first name}}',
    )
    expect(() => checkRows([{ a: { b: 1 } }])).toThrow('Row 1, column a: a cell must be text, a number or true/false.')
    expect(() => checkRows([JSON.parse('{"__proto__": "x"}')])).toThrow('cannot be used')
    expect(() => checkRows([{ a: 'x'.repeat(2001) }])).toThrow('Row 1, column a: a cell holds at most 2000 characters.')
  })
})

describe('columnKey and failedRowsInWords', () => {
  it('makes a header a placeholder name', () => {
    expect(columnKey(' Unit price (€) ', 0)).toBe('Unit_price')
    expect(columnKey('???', 4)).toBe('column_5')
  })

  it('says which rows failed and why the first did, or nothing when none did', () => {
    expect(failedRowsInWords([{ row: 1, status: 'done' }])).toBeNull()
    expect(
      failedRowsInWords([
        { row: 1, status: 'failed', error: 'Step 2 (type, row 1): no field' },
        { row: 2, status: 'done' },
        { row: 3, status: 'failed', error: 'x' },
      ]),
    ).toBe('Rows 1, 3 of 3 failed; the other rows ran. Row 1: Step 2 (type, row 1): no field')
  })
})
