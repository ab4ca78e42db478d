import { expect, type BrowserContext, type Page } from '@playwright/test'

// A corpus of cross-site scripting payloads for xss.spec.ts. Every payload that could run calls
// window.__xss(<its id>), a hook the spec installs in every frame; `alert` payloads are caught by
// the dialog listener. The numbers name the payload in a failure report.

export interface Payload {
  readonly id: number
  readonly text: string
}

const corpus: [number, string][] = [
  [1, '<script>__xss(1)</script>'],
  [2, '<img src=x onerror=__xss(2)>'],
  [3, '<svg onload=__xss(3)>'],
  [4, '<svg><script>__xss(4)</script></svg>'],
  [5, '"><img src=x onerror=__xss(5)>'],
  [6, "'><svg onload=__xss(6)>"],
  [7, '</script><script>__xss(7)</script>'],
  [8, 'javascript:__xss(8)'],
  [9, 'JaVaScRiPt:__xss(9)'],
  [10, '<a href="  javascript:__xss(10)">x</a>'],
  [11, '<iframe srcdoc="<script>__xss(11)</script>">'],
  [12, 'data:text/html,<script>__xss(12)</script>'],
  [13, '&lt;img src=x onerror=__xss(13)&gt;'],
  [14, '&#x3C;svg onload=__xss(14)&#x3E;'],
  [15, '${__xss(15)}`${__xss(15)}`'],
  [16, "{{constructor.constructor('__xss(16)')()}}"],
  [17, '<div style="width:expression(__xss(17))">'],
  [18, '<details open ontoggle=__xss(18)>'],
  [19, '<input autofocus onfocus=__xss(19)>'],
  [20, '<object data="javascript:__xss(20)">'],
  [21, '<base href="javascript:__xss(21)//">'],
  [22, ']]><script>__xss(22)</script>'],
  [23, '<img src=x onerror=alert(23)>'],
  [24, '<math><style><img src=x onerror=__xss(24)>'],
  [25, '<a href=JaVaScRiPt&colon;__xss(25)>y</a>'],
]

/** Every payload at most 60 characters: fits the shortest text fields (site and plan names, key names). */
export const PAYLOADS: readonly Payload[] = corpus.map(([id, text]) => ({ id, text }))

/** Longer payloads for fields that take a paragraph (messages, descriptions, logs, Markdown). */
export const LONG_PAYLOADS: readonly Payload[] = [
  {
    id: 40,
    // The classic polyglot (0xSobky): breaks out of attributes, comments, style, title, textarea and script.
    text: 'jaVasCript:/*-/*`/*\\`/*\'/*"/**/(/* */oNcliCk=__xss(40) )//%0D%0A%0d%0a//</stYle/</titLe/</teXtarEa/</scRipt/--!>\\x3csVg/<sVg/oNloAd=__xss(40)//>\\x3e',
  },
  { id: 41, text: '<meta http-equiv="refresh" content="0;url=javascript:__xss(41)">' },
  { id: 42, text: '<noscript><p title="</noscript><img src=x onerror=__xss(42)>">' },
  { id: 43, text: '<svg><a xlink:href="javascript:__xss(43)"><text y="20">svg link</text></a></svg>' },
  { id: 44, text: '<form><button formaction="javascript:__xss(44)">go</button></form>' },
  { id: 45, text: '<![CDATA[<script>__xss(45)</script>]]>' },
  { id: 46, text: '<textarea></textarea><img src=x onerror=__xss(46)>' },
  { id: 47, text: '<embed src="data:text/html,&lt;script&gt;__xss(47)&lt;/script&gt;">' },
]

/** Markdown that tries to smuggle script through links, images and raw HTML (blog content). */
export const MARKDOWN_PAYLOADS: readonly Payload[] = [
  { id: 101, text: '[md link](javascript:__xss(101))' },
  { id: 102, text: '[md mixed case](JaVaScRiPt:__xss(102))' },
  { id: 103, text: '[md entity](javascript&#58;__xss(103))' },
  { id: 104, text: '[md tab](java\tscript:__xss(104))' },
  { id: 105, text: '![md image](javascript:__xss(105))' },
  { id: 106, text: '![md quote](x" onerror="__xss(106))' },
  { id: 107, text: '[md data](data:text/html;base64,PHNjcmlwdD5fX3hzcygxMDcpPC9zY3JpcHQ+)' },
  { id: 108, text: '<javascript:__xss(108)>' },
  { id: 109, text: '[md reference][r109]\n\n[r109]: javascript:__xss(109)' },
  { id: 110, text: '[md vbscript](vbscript:__xss(110))' },
  { id: 111, text: '<div onmouseover="__xss(111)">raw html block</div>' },
  { id: 112, text: 'inline <img src=x onerror=__xss(112)> raw html' },
  { id: 113, text: '<script>__xss(113)</script>' },
  { id: 114, text: '[md title](https://example.com "title\\" onmouseover=\\"__xss(114)")' },
  { id: 115, text: '`<img src=x onerror=__xss(115)>` in code' },
  { id: 116, text: '```html\n<script>__xss(116)</script>\n```' },
  { id: 117, text: '[md spaces](%20javascript:__xss(117))' },
  { id: 118, text: '<iframe srcdoc="<script>__xss(118)</script>"></iframe>' },
  { id: 119, text: '[md encoded](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;__xss(119))' },
]

/** Every short and long payload on its own line: one text for a field that takes a paragraph. */
export const ALL_TEXT = [...PAYLOADS, ...LONG_PAYLOADS].map((payload) => payload.text).join('\n')

/** What ran: payload ids passed to the hook, and dialogs (alert, confirm, prompt) that opened. */
export interface XssProbe {
  readonly calls: string[]
  /** Fails the test when any payload ran. */
  expectNothingRan(where: string): void
  /**
   * The script hashes in the CSP of the document the page shows: a kept public page allows its own
   * inline scripts by their hashes instead of a nonce (docs/decisions/033).
   */
  scriptHashesOf(page: Page): string[]
}

/**
 * Installs window.__xss in every page and frame of the context (exposeBinding reaches frames too),
 * and records every dialog. Call before the first navigation.
 */
export async function armXssProbe(context: BrowserContext): Promise<XssProbe> {
  const calls: string[] = []
  await context.exposeBinding('__xss', ({ frame }, id: unknown) => {
    calls.push(`payload ${String(id)} ran in ${frame.url()}`)
  })
  context.on('dialog', (dialog) => {
    calls.push(`a ${dialog.type()} dialog opened with "${dialog.message()}" on ${dialog.page()?.url() ?? 'a page'}`)
    void dialog.dismiss().catch(() => undefined)
  })
  const documentHashes = new WeakMap<Page, string[]>()
  context.on('response', (response) => {
    const frame = response.request().isNavigationRequest() ? response.frame() : null
    if (!frame || frame !== frame.page().mainFrame()) return
    const csp = response.headers()['content-security-policy'] ?? ''
    documentHashes.set(
      frame.page(),
      [...csp.matchAll(/'sha256-([^']+)'/g)].map((match) => match[1] ?? ''),
    )
  })
  return {
    calls,
    expectNothingRan: (where) => expect(calls, `scripts from payloads ran (${where})`).toEqual([]),
    scriptHashesOf: (page) => documentHashes.get(page) ?? [],
  }
}

/**
 * Markup that only an injected payload could have produced: event-handler attributes, scripts that
 * name the hook, frames and plug-ins, base and refresh tags, and script-bearing URLs. Escaped text
 * never creates elements or attributes, so this fails even where the CSP would have blocked the script.
 */
async function injectedMarkup(page: Page, scriptHashes: string[]): Promise<string[]> {
  return page.evaluate(async (hashes) => {
    const found: string[] = []
    /** A kept page's own inline script: its text has one of the hashes its CSP lists. */
    const hashed = new Set<Element>()
    for (const script of Array.from(document.querySelectorAll('script:not([src])'))) {
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script.textContent ?? ''))
      const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)))
      if (hashes.includes(base64)) hashed.add(script)
    }
    const describe = (element: Element) => element.outerHTML.slice(0, 160)
    const scriptUrl = (value: string) => {
      // The URL parser drops tabs and newlines anywhere and C0 controls and spaces in front before reading a scheme.
      const normal = value
        .replace(/[\t\n\r]/g, '')
        .replace(/^[^\x21-\x7e]+/, '')
        .toLowerCase()
      return /^(javascript|vbscript|data:text|data:image\/svg)/.test(normal)
    }
    const walk = (root: Document | ShadowRoot) => {
      for (const element of Array.from(root.querySelectorAll('*'))) {
        const tag = element.tagName.toLowerCase()
        if (element.shadowRoot) walk(element.shadowRoot)
        for (const attribute of Array.from(element.attributes)) {
          const name = attribute.name.toLowerCase()
          if (name.startsWith('on')) found.push(`event handler ${name}: ${describe(element)}`)
          if (name === 'srcdoc') found.push(`srcdoc: ${describe(element)}`)
          if (
            ['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'poster', 'background'].includes(name) &&
            scriptUrl(attribute.value)
          )
            found.push(`script URL in ${name}: ${describe(element)}`)
          if (name === 'style' && /expression\(|javascript:/i.test(attribute.value)) found.push(`style: ${describe(element)}`)
        }
        // React Router's own scripts carry the nonce (their loader data names payloads, as escaped JSON text);
        // injected markup cannot know the nonce. On a kept page they are the scripts its CSP lists by hash.
        const signed =
          tag === 'script' && ((element as HTMLScriptElement).nonce !== '' || element.hasAttribute('nonce') || hashed.has(element))
        if (tag === 'script' && !signed) found.push(`script without the nonce: ${describe(element)}`)
        if (['iframe', 'frame', 'object', 'embed', 'base'].includes(tag)) found.push(`${tag}: ${describe(element)}`)
        if (tag === 'meta' && element.getAttribute('http-equiv')?.toLowerCase() === 'refresh')
          found.push(`meta refresh: ${describe(element)}`)
      }
    }
    walk(document)
    return found
  }, scriptHashes)
}

/** The page's visible text with runs of whitespace made one space, for comparing with a payload. */
const visibleText = (page: Page) => page.evaluate(() => document.body.innerText.replace(/\s+/g, ' '))

/** Each text is on the page as text (so a pass does not just mean the data was never shown). */
export async function expectShownAsText(page: Page, texts: readonly string[], where: string) {
  const normal = texts.map((text) => text.replace(/\s+/g, ' ').trim())
  await expect
    .poll(
      async () => {
        const shown = await visibleText(page)
        return normal.filter((text) => !shown.includes(text))
      },
      { message: `payloads not shown as text on ${where}` },
    )
    .toEqual([])
}

/** Nothing ran and nothing was injected on this page. */
export async function expectInert(page: Page, probe: XssProbe, where: string) {
  // Give event handlers (onload, onerror, autofocus) a moment to fire had they been injected.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))))
  expect(await injectedMarkup(page, probe.scriptHashesOf(page)), `markup injected on ${where}`).toEqual([])
  probe.expectNothingRan(where)
}
