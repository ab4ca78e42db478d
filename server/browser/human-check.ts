import type { Page } from 'playwright-core'

/** Check providers by the address of the frame they draw in, with the name a member knows them by. */
const PROVIDER_FRAMES: [RegExp, string][] = [
  [/\/recaptcha\/|recaptcha\.net/, 'a reCAPTCHA'],
  [/hcaptcha\.com/, 'an hCaptcha'],
  [/challenges\.cloudflare\.com/, 'a Cloudflare check'],
  [/arkoselabs\.com|funcaptcha\.com/, 'an Arkose check'],
  [/geetest\.com/, 'a GeeTest check'],
  [/captcha-delivery\.com/, 'a DataDome check'],
]

/** What such checks say to people, on the page or in its title. */
const HUMAN_WORDS =
  /(verify (that )?you are (a )?human|are you (a )?human|i[’']?m not a robot|are you a robot|confirm you are not a robot|complete the security check|press (and|&) hold|checking (if the site connection is secure|your browser)|just a moment\.\.\.|attention required)/i

/**
 * What blocks the page for anyone but a person (docs/decisions/059, amended): a visible CAPTCHA
 * or similar check, by its provider's frame or by what it asks, in words ("a reCAPTCHA"); null
 * when there is none. Invisible checks (reCAPTCHA v3's badge, a hidden widget) do not count: they
 * block nothing a person could solve.
 */
export async function humanCheckOn(page: Page): Promise<string | null> {
  const found = await page.evaluate(
    ({ frames, words }) => {
      const shown = (element: Element) => {
        const box = element.getBoundingClientRect()
        const style = getComputedStyle(element)
        return box.width >= 30 && box.height >= 30 && style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0
      }
      for (const frame of document.querySelectorAll('iframe')) {
        const source = frame.src || frame.getAttribute('src') || ''
        const provider = frames.find(([pattern]) => new RegExp(pattern).test(source))
        if (provider && shown(frame) && !/[?&]size=invisible\b/.test(source)) return provider[1]
      }
      const widget = document.querySelector('.g-recaptcha, .h-captcha, .cf-turnstile, #challenge-form, #cf-challenge-running')
      if (widget && shown(widget)) return 'a CAPTCHA'
      const pattern = new RegExp(words, 'i')
      const said = pattern.exec(document.title)?.[0] ?? pattern.exec(document.body?.innerText ?? '')?.[0]
      return said ? `a check that asks “${said}”` : null
    },
    { frames: PROVIDER_FRAMES.map(([pattern, name]) => [pattern.source, name] as [string, string]), words: HUMAN_WORDS.source },
  )
  return found
}

/** The message of the wait a check starts: what the person is asked to do. */
export const humanCheckMessage = (check: string, step: number) =>
  `Step ${step} is blocked by ${check}, which only a person can get past. Solve it in the live view, then press Continue: the step is tried again.`
