// Text a step types, as an input of a given type takes it: a date field takes yyyy-mm-dd whatever
// way the date was written, a number field takes digits without thousands separators. Shared by
// the cloud runner (server/browser/step-actions.ts) and the extension (extension/src/runner).

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const pad = (value: number) => String(value).padStart(2, '0')

function monthOf(word: string): number | null {
  const index = MONTHS.indexOf(word.slice(0, 3).toLowerCase())
  return index < 0 ? null : index + 1
}

function validDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return `${year}-${pad(month)}-${pad(day)}`
}

/**
 * A date as yyyy-mm-dd: '2026-12-05', '5 December 2026', 'December 5, 2026', 'Dec 5th 2026',
 * '12/05/2026' (month first, as US forms write it, unless the first number cannot be a month:
 * '25/12/2026'), '05.12.2026' (day first). Null when it reads as no date.
 */
export function isoDate(text: string): string | null {
  const value = text.trim().replace(/,/g, ' ').replace(/\s+/g, ' ')
  let match: RegExpExecArray | null
  if ((match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(value))) return validDate(+match[1]!, +match[2]!, +match[3]!)
  if ((match = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value))) return validDate(+match[3]!, +match[2]!, +match[1]!)
  if ((match = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(value))) {
    const [first, second, year] = [+match[1]!, +match[2]!, +match[3]!]
    return first > 12 ? validDate(year, second, first) : validDate(year, first, second)
  }
  if ((match = /^(\d{1,2})(?:st|nd|rd|th)?(?: of)? ([A-Za-z]{3,9})\.? (\d{4})$/.exec(value))) {
    const month = monthOf(match[2]!)
    return month ? validDate(+match[3]!, month, +match[1]!) : null
  }
  if ((match = /^([A-Za-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)? (\d{4})$/.exec(value))) {
    const month = monthOf(match[1]!)
    return month ? validDate(+match[3]!, month, +match[2]!) : null
  }
  return null
}

/** A number as a number field takes it: '1,234.50' -> '1234.50', '€ 12' -> '12'. Null when it is none. */
export function plainNumber(text: string): string | null {
  const value = text
    .trim()
    .replace(/^[^\d+-.]+|[^\d.]+$/g, '')
    .replace(/[\s,_']/g, '')
  return /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(value) ? value : null
}

/** The text to fill into an input of this type (its `type` attribute): converted when it needs to be, else as given. */
export function valueForInput(inputType: string, text: string): string {
  const type = inputType.toLowerCase()
  if (type === 'date') return isoDate(text) ?? text
  if (type === 'datetime-local') {
    const match = /^(.+?)[ T](\d{1,2}:\d{2})$/.exec(text.trim())
    const date = match ? isoDate(match[1] ?? '') : null
    return date && match ? `${date}T${(match[2] ?? '').padStart(5, '0')}` : text
  }
  if (type === 'number' || type === 'range') return plainNumber(text) ?? text
  return text
}
