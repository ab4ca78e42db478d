import { describe, expect, it } from 'vitest'
import { webhookUrlHint } from './webhooks.ts'

describe('webhookUrlHint', () => {
  it('keeps the origin and at most the last 4 characters of the rest, once it has 16 or more', () => {
    expect(
      [
        'https://hooks.example.com/services/T0KEN/abc?token=xyz123456',
        'https://Hooks.Example.COM:443/short',
        'http://example.org:8080/',
        'http://example.org:80/a/b/c/d/e/f/g/h/i',
        'https://example.com',
        'https://example.com?token=abcdefghijklmnop',
        'https://[2001:db8::1]:8443/x/secret-token-1234',
        'https://example.com/a#fragment-secret-value',
      ].map(webhookUrlHint),
    ).toEqual([
      'https://hooks.example.com/…3456',
      'https://hooks.example.com/…',
      'http://example.org:8080/',
      'http://example.org/…/h/i',
      'https://example.com/',
      'https://example.com/…mnop',
      'https://[2001:db8::1]:8443/…1234',
      'https://example.com/…alue',
    ])
    expect(webhookUrlHint('not a url')).toBe('a webhook URL')
  })
})
