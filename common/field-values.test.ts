import { describe, expect, it } from 'vitest'
import { isoDate, plainNumber, valueForInput } from './field-values.ts'

describe('values as typed fields take them', () => {
  it('reads the common ways of writing a date', () => {
    expect(isoDate('2026-12-05')).toBe('2026-12-05')
    expect(isoDate('5 December 2026')).toBe('2026-12-05')
    expect(isoDate('5th of Dec 2026')).toBe('2026-12-05')
    expect(isoDate('December 5, 2026')).toBe('2026-12-05')
    expect(isoDate('12/05/2026')).toBe('2026-12-05')
    expect(isoDate('25/12/2026')).toBe('2026-12-25')
    expect(isoDate('05.12.2026')).toBe('2026-12-05')
    expect(isoDate('31 February 2026')).toBeNull()
    expect(isoDate('next Tuesday')).toBeNull()
  })

  it('reads numbers without their separators, and leaves other fields alone', () => {
    expect(plainNumber('1,234.50')).toBe('1234.50')
    expect(plainNumber('€ 12')).toBe('12')
    expect(plainNumber('-3')).toBe('-3')
    expect(plainNumber('twelve')).toBeNull()
    expect(valueForInput('date', '5 December 2026')).toBe('2026-12-05')
    expect(valueForInput('datetime-local', '5 December 2026 9:30')).toBe('2026-12-05T09:30')
    expect(valueForInput('number', '1,000')).toBe('1000')
    expect(valueForInput('text', '1,000')).toBe('1,000')
    expect(valueForInput('date', 'soon')).toBe('soon')
  })
})
