/**
 * Attribute changes that change what a person can see or use, watched when waiting for a page to
 * settle (server/browser/page-settle.ts, the extension's runner/dom-quiet.ts). Not `style` nor
 * `src`: animations, carousels and tickers change those forever.
 */
export const SETTLE_WATCHED_ATTRIBUTES = [
  'class',
  'hidden',
  'disabled',
  'open',
  'value',
  'placeholder',
  'aria-hidden',
  'aria-busy',
  'aria-disabled',
  'aria-expanded',
  'aria-label',
]
