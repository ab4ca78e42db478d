import { describe, expect, it } from 'vitest'
import { extractedAsCsv } from './extracted-csv.ts'

describe('extractedAsCsv', () => {
  it('has one column per field, in order of first appearance, and blank cells for missing fields', () => {
    expect(extractedAsCsv([{ title: 'A' }, { price: '3', title: 'B' }])).toBe('title,price\r\nA,\r\nB,3\r\n')
  })

  it('quotes commas, quotes and line breaks', () => {
    expect(extractedAsCsv([{ text: 'a, "b"\nc' }])).toBe('text\r\n"a, ""b""\nc"\r\n')
  })

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(extractedAsCsv([{ v: '=HYPERLINK("x")' }, { v: '-1' }, { v: '@SUM(A1)' }])).toBe(
      `v\r\n"'=HYPERLINK(""x"")"\r\n'-1\r\n'@SUM(A1)\r\n`,
    )
  })

  it('is only the header line for no rows', () => {
    expect(extractedAsCsv([])).toBe('\r\n')
  })
})
