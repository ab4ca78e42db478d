import { describe, expect, it } from 'vitest'
import { normalizeOrigin, pageOrigin, secretOriginsSchema, secretOriginsTextSchema } from './secret-origins.ts'

// The sites a secret may be typed on (docs/decisions/039): what a member writes, kept as the origin
// the browser reports for a page, so the executor's comparison is exact.

describe('origins of secrets', () => {
  it('keeps an address or a bare host as its origin, as the URL standard writes it', () => {
    const origins = [
      'https://App.Example.com/login?next=1#top',
      'app.example.com',
      'HTTP://Intranet.local:80/',
      'localhost:3000',
      '127.0.0.1:8443/x',
      'https://shop.example.com:443',
      'https://bücher.example',
    ].map((text) => normalizeOrigin(text))
    expect(origins).toEqual([
      { ok: true, origin: 'https://app.example.com' },
      { ok: true, origin: 'https://app.example.com' },
      { ok: true, origin: 'http://intranet.local' },
      { ok: true, origin: 'https://localhost:3000' },
      { ok: true, origin: 'https://127.0.0.1:8443' },
      { ok: true, origin: 'https://shop.example.com' },
      { ok: true, origin: 'https://xn--bcher-kva.example' },
    ])
  })

  it('refuses what names no web origin', () => {
    for (const text of [
      '',
      'ftp://x.example',
      'https://*.example.com',
      'https://u:p@x.example',
      'data:text/html,x',
      'https://{{input.h}}/',
      'a b',
    ]) {
      expect(normalizeOrigin(text).ok, text).toBe(false)
    }
  })

  it('reads the origin of a page the way the executor compares it: none for pages without their own', () => {
    expect(pageOrigin('https://app.example.com/a?b#c')).toBe('https://app.example.com')
    expect(pageOrigin('about:blank')).toBeNull()
    expect(pageOrigin('about:srcdoc')).toBeNull()
    expect(pageOrigin('data:text/html,<input>')).toBeNull()
    expect(pageOrigin('not an address')).toBeNull()
  })

  it('takes a list (API) or lines (form), each site once, at least one and at most 20', () => {
    expect(secretOriginsSchema.parse(['https://a.example/x', 'a.example', 'https://b.example'])).toEqual([
      'https://a.example',
      'https://b.example',
    ])
    expect(secretOriginsTextSchema.parse('https://a.example\n\n b.example , c.example')).toEqual([
      'https://a.example',
      'https://b.example',
      'https://c.example',
    ])
    expect(secretOriginsSchema.safeParse([]).success).toBe(false)
    expect(secretOriginsTextSchema.safeParse('  \n ').success).toBe(false)
    expect(secretOriginsSchema.safeParse(Array.from({ length: 21 }, (_, i) => `s${i}.example`)).success).toBe(false)
  })
})
