/** What the browser says about itself (navigator.userAgentData, where the browser has it). */
export interface BrowserIdentity {
  userAgent: string
  brands?: readonly { brand: string }[]
}

const SYSTEMS: [RegExp, string][] = [
  [/CrOS/, 'ChromeOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
]
const BROWSERS: [RegExp, string][] = [
  [/Microsoft Edge|Edg\//, 'Edge'],
  [/Brave/, 'Brave'],
  [/Opera|OPR\//, 'Opera'],
  [/Google Chrome/, 'Chrome'],
]

/** The name a pairing gives this browser on the website's device list: 'Chrome on Linux'. */
export function deviceName(identity: BrowserIdentity): string {
  // Brands tell Chrome from Chromium (both say "Chrome/" in the user agent); without them, the user agent is all there is.
  const brands = (identity.brands ?? []).map((entry) => entry.brand).join(' ')
  const fallback = brands || !/Chrome\//.test(identity.userAgent) ? 'Chromium' : 'Chrome'
  const browser = BROWSERS.find(([pattern]) => pattern.test(brands || identity.userAgent))?.[1] ?? fallback
  const system = SYSTEMS.find(([pattern]) => pattern.test(identity.userAgent))?.[1]
  return system ? `${browser} on ${system}` : browser
}
