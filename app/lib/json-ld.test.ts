import { describe, expect, it } from 'vitest'
import { jsonLdText } from './json-ld.ts'

describe('jsonLdText', () => {
  it('keeps a hostile title inside the script element and round-trips as the same JSON', () => {
    const value = { headline: '</script><script>alert(1)</script> & <!-- \u2028' }
    const text = jsonLdText(value)
    expect(text).not.toMatch(/[<>&\u2028]/)
    expect(JSON.parse(text)).toEqual(value)
  })
})
