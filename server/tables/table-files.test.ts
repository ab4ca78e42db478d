import { utils, write } from '@e965/xlsx'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { MAX_XLSX_BYTES } from '#common/data-rows.ts'
import { rowsOfXlsx, tableAsFile } from './table-files.ts'

const workbook = (rows: unknown[][]) =>
  new Uint8Array(
    write(utils.book_new(utils.aoa_to_sheet(rows, { cellDates: true }), 'Orders'), { type: 'buffer', bookType: 'xlsx' }) as Buffer,
  )

describe('tables as files', () => {
  it('writes extracted rows as an Excel workbook that reads back as the same rows, formulas kept as text', () => {
    const rows = [
      { name: 'Ada', total: '12.50', note: '=HYPERLINK("https://evil.example","click")' },
      { name: 'Grace', total: null, note: '' },
    ]
    const bytes = tableAsFile(rows, 'xlsx')
    expect([...bytes.slice(0, 2)]).toEqual([0x50, 0x4b])
    expect(rowsOfXlsx(bytes)).toEqual([
      { name: 'Ada', total: '12.50', note: '=HYPERLINK("https://evil.example","click")' },
      { name: 'Grace', total: '', note: '' },
    ])
  })

  it('writes CSV and JSON as before', () => {
    const rows = [{ a: '1', b: 'x,y' }]
    expect(new TextDecoder().decode(tableAsFile(rows, 'csv'))).toBe('a,b\r\n1,"x,y"\r\n')
    expect(JSON.parse(new TextDecoder().decode(tableAsFile(rows, 'json')))).toEqual(rows)
  })

  it("reads a workbook's first sheet as the spreadsheet shows it: headers as column names, numbers and dates as text, blank rows left out", () => {
    const bytes = workbook([
      ['First name', 'E-mail', 'Amount', 'Paid'],
      ['Ada', 'ada@example.com', 12.5, true],
      [],
      ['Grace', 'grace@example.com', 3, false],
    ])
    expect(rowsOfXlsx(bytes)).toEqual([
      { First_name: 'Ada', E_mail: 'ada@example.com', Amount: '12.5', Paid: 'TRUE' },
      { First_name: 'Grace', E_mail: 'grace@example.com', Amount: '3', Paid: 'FALSE' },
    ])
  })

  it('refuses what is not an .xlsx workbook, one too large, and one that would unpack to too much', () => {
    expect(() => rowsOfXlsx(new TextEncoder().encode('name,email\nAda,ada@example.com\n'))).toThrow(
      'The file is not an Excel workbook (.xlsx): save it as .xlsx or CSV.',
    )
    expect(() => rowsOfXlsx(new Uint8Array(MAX_XLSX_BYTES + 1))).toThrow('The spreadsheet is larger than 700 KB')
    // 60 MB of zeros packs into a few kilobytes.
    const bomb = zipSync({ 'xl/worksheets/sheet1.xml': new Uint8Array(60_000_000) }, { level: 9 })
    expect(bomb.length).toBeLessThan(MAX_XLSX_BYTES)
    expect(() => rowsOfXlsx(bomb)).toThrow('The workbook unpacks to more than 50 MB')
    // A zip that holds no workbook.
    expect(() => rowsOfXlsx(zipSync({ 'readme.txt': new TextEncoder().encode('hello') }))).toThrow(
      'The file could not be read as an Excel workbook (.xlsx).',
    )
  })

  it('refuses a sheet with no header, or more columns than a run takes', () => {
    expect(() => rowsOfXlsx(workbook([]))).toThrow('The sheet is empty')
    expect(() => rowsOfXlsx(workbook([Array.from({ length: 51 }, (_, n) => `c${n}`), Array.from({ length: 51 }, () => 'x')]))).toThrow(
      'The data has 51 columns; at most 50.',
    )
  })
})
