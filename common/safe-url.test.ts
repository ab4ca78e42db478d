import { describe, expect, it } from 'vitest'
import { isExternalUrl, isSafeUrl, safeUrl, UNSAFE_URL_REPLACEMENT } from './safe-url.ts'

const ALLOWED = [
  'https://example.com',
  'http://example.com/path?q=1&x=2#top',
  'HTTPS://EXAMPLE.COM',
  '//example.com/protocol-relative',
  'mailto:hello@example.com',
  'MailTo:hello@example.com?subject=Hi',
  'tel:+1-555-0100',
  '/blog/other-post',
  '../relative/path',
  'relative/path',
  'page.html',
  '#section',
  '?page=2',
  '?next=https://example.com',
  '/search?q=a:b',
  '#a:b',
  '',
]

// Every way we know of to smuggle a script or a local resource through a link.
const REFUSED = [
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\u0000javascript:alert(1)',
  '\u0001\u001fjavascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\rscript:alert(1)',
  'javascript\t:alert(1)',
  'javascript :alert(1)',
  '\u00a0javascript:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;avascript:alert(1)',
  '&#0000106&#0000097vascript:alert(1)',
  'javascript&colon;alert(1)',
  'javascript&#58;alert(1)',
  'javascript&#x3a;alert(1)',
  'javascript&#58alert(1)',
  'java&#x09;script:alert(1)',
  'java&Tab;script:alert(1)',
  'java&NewLine;script:alert(1)',
  'javascript://%0aalert(1)',
  'javascript:/*--></title></style></textarea></script><svg/onload=alert(1)>',
  'javascript:void(0)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'DATA:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'file:///etc/passwd',
  'blob:https://example.com/uuid',
  'filesystem:https://example.com/temporary/x',
  'ftp://example.com/file',
  'intent://scan/#Intent;scheme=zxing;end',
  'chrome://settings',
  'about:blank',
  'livescript:alert(1)',
  'jav\u0000ascript:alert(1)',
  '\u200bjavascript:alert(1)',
  'ｊavascript:alert(1)',
  'x-javascript:alert(1)',
  'javascript\u0000:alert(1)',
]

describe('isSafeUrl / safeUrl', () => {
  it.each(ALLOWED)('allows %j', (url) => {
    expect(isSafeUrl(url)).toBe(true)
    expect(safeUrl(url)).toBe(url.trim())
  })

  it.each(REFUSED)('refuses %j', (url) => {
    expect(isSafeUrl(url)).toBe(false)
    expect(safeUrl(url)).toBe(UNSAFE_URL_REPLACEMENT)
  })

  it('replaces unsafe links with a harmless fragment', () => {
    expect(UNSAFE_URL_REPLACEMENT).toBe('#')
  })
})

describe('isExternalUrl', () => {
  it('marks absolute and protocol-relative web links as external, nothing else', () => {
    expect(isExternalUrl('https://example.com')).toBe(true)
    expect(isExternalUrl('HTTP://example.com')).toBe(true)
    expect(isExternalUrl('//example.com')).toBe(true)
    expect(isExternalUrl('/\\example.com')).toBe(true)
    expect(isExternalUrl('/blog')).toBe(false)
    expect(isExternalUrl('#top')).toBe(false)
    expect(isExternalUrl('mailto:a@example.com')).toBe(false)
  })
})
