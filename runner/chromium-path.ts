import { existsSync } from 'node:fs'

/** Where Chromium or Chrome usually is, by platform: the member's installed browser. */
const USUAL_PLACES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
]

/** --chromium, else CHROMIUM_PATH, else the first usual place that exists; null when none does. */
export function findChromium(given?: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (given) return given
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH
  return USUAL_PLACES.find((place) => existsSync(place)) ?? null
}
