import { createElement, Fragment, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { deferImports, HYDRATED_EVENT, INTERACTION_PRELOAD_MARKER, paintFirst, PRELOAD_MARKER } from './paint-first-scripts.tsx'

// What React Router 7's <Scripts> renders during the server render and hydration (its shape:
// an importmap or null, the entry's and the routes' modulepreload links, then the context
// script and the module bootstrap).
const BOOTSTRAP = `;
import * as route0 from "/assets/root-a.js";
import * as route1 from "/assets/home-b.js";
  window.__reactRouterManifest = {
  "entry": {
    "module": "/assets/entry.client-c.js",
    "imports": ["/assets/core-d.js"]
  }
};
  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};

import("/assets/entry.client-c.js");`

function routerScripts(bootstrap = BOOTSTRAP): ReactElement {
  return createElement(
    Fragment,
    null,
    null,
    null,
    createElement('link', { rel: 'modulepreload', href: '/assets/entry.client-c.js', nonce: 'n' }),
    ['/assets/core-d.js', '/assets/root-a.js', '/assets/home-b.js'].map((href) =>
      createElement('link', { key: href, rel: 'modulepreload', href, nonce: 'n' }),
    ),
    createElement(
      Fragment,
      null,
      createElement('script', { nonce: 'n', dangerouslySetInnerHTML: { __html: 'window.__reactRouterContext = {};' } }),
      createElement('script', { nonce: 'n', type: 'module', async: true, dangerouslySetInnerHTML: { __html: bootstrap } }),
    ),
  )
}

/** Runs a bootstrap with stand-ins for the browser; answers what it did, in order. */
async function run(code: string, { paint, visible = true }: { paint: 'now' | 'later' | 'never'; visible?: boolean }) {
  const log: string[] = []
  const timers: (() => void)[] = []
  type Callback = (list: { getEntriesByName: (name: string) => unknown[] }, observer: { disconnect: () => void }) => void
  const observer: { callback: Callback | null } = { callback: null }
  const document = {
    visibilityState: visible ? 'visible' : 'hidden',
    createElement: () => ({ rel: '', href: '' }),
    head: { append: (link: { rel: string; href: string }) => log.push(`${link.rel} ${link.href}`) },
  }
  class PerformanceObserver {
    static supportedEntryTypes = ['paint']
    constructor(callback: Callback) {
      observer.callback = callback
    }
    observe() {
      if (paint === 'now')
        queueMicrotask(() => observer.callback?.({ getEntriesByName: () => [{}] }, { disconnect: () => log.push('disconnect') }))
    }
  }
  const setTimeout = (callback: () => void, ms: number) => {
    log.push(`timer ${ms}`)
    timers.push(callback)
    return timers.length
  }
  const clearTimeout = (id: number) => {
    log.push('clear timer')
    timers[id - 1] = () => {}
  }
  const load = (href: string) => {
    log.push(`import ${href}`)
    return Promise.resolve({ href })
  }
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...args: unknown[]) => Promise<void>
  const body = code.replace(/\bimport\(/g, 'load(')
  const window: Record<string, unknown> = {}
  const running = new AsyncFunction('document', 'PerformanceObserver', 'setTimeout', 'clearTimeout', 'load', 'window', body)(
    document,
    PerformanceObserver,
    setTimeout,
    clearTimeout,
    load,
    window,
  )
  // Let the wait settle, then fire the timers it set (the paint's start, or the one-second limit).
  for (let round = 0; round < 20; round++) {
    await Promise.resolve()
    if (round === 10 && paint === 'later')
      observer.callback?.({ getEntriesByName: () => [{}] }, { disconnect: () => log.push('disconnect') })
    if (round === 15) for (const timer of timers.splice(0)) timer()
  }
  await running
  return { log, window }
}

describe('deferImports', () => {
  it('waits for the first contentful paint, adds the hints, then imports the routes and the entry in order', async () => {
    const code = deferImports(BOOTSTRAP, ['/assets/entry.client-c.js', '/assets/core-d.js'])
    expect(code).not.toBeNull()
    expect(code).not.toMatch(/^\s*import \* as/m)
    const { log, window } = await run(code ?? '', { paint: 'now' })
    expect(log).toEqual([
      'timer 1000',
      'disconnect',
      'clear timer',
      'timer 0',
      'modulepreload /assets/entry.client-c.js',
      'modulepreload /assets/core-d.js',
      'import /assets/root-a.js',
      'import /assets/home-b.js',
      'import /assets/entry.client-c.js',
    ])
    expect(window.__reactRouterRouteModules).toEqual({ root: { href: '/assets/root-a.js' }, 'routes/home': { href: '/assets/home-b.js' } })
  })

  it('imports nothing before the paint', async () => {
    const code = deferImports(BOOTSTRAP, ['/assets/core-d.js']) ?? ''
    const { log } = await run(code, { paint: 'later' })
    expect(log.indexOf('disconnect')).toBeLessThan(log.indexOf('import /assets/root-a.js'))
    expect(log.indexOf('disconnect')).toBeLessThan(log.indexOf('modulepreload /assets/core-d.js'))
  })

  it('starts after a second at most when no paint is reported, and at once in a hidden tab', async () => {
    const code = deferImports(BOOTSTRAP, ['/assets/core-d.js']) ?? ''
    const late = await run(code, { paint: 'never' })
    expect(late.log.slice(0, 2)).toEqual(['timer 1000', 'modulepreload /assets/core-d.js'])
    expect(late.log).toContain('import /assets/entry.client-c.js')
    const hidden = await run(code, { paint: 'never', visible: false })
    expect(hidden.log.slice(0, 2)).toEqual(['timer 0', 'modulepreload /assets/core-d.js'])
  })

  it('refuses a bootstrap with a static import it does not know', () => {
    expect(deferImports(`import { x } from "/assets/a.js";\nimport("/assets/entry.js");`, [])).toBeNull()
  })
})

/** How the browser answers a control by itself, if it does: the popover or dialog it opens, the form it submits. */
type AnsweredBy = 'popover' | 'command' | 'form' | null

/** A page element for the wait: a control, a link, or anything else (a paragraph's text). */
class FakeElement {
  disabled = false
  isConnected = true
  /** The open popover this element sits in, if any. */
  openPopover: { hidePopover: () => void } | null = null
  constructor(
    readonly name: string,
    readonly kind: 'control' | 'link' | 'text',
    private readonly log: string[],
    private readonly answeredBy: AnsweredBy = null,
  ) {}
  closest(selector: string) {
    if (selector === 'a[href]') return this.kind === 'link' ? this : null
    if (selector === '[popover]:popover-open') return this.openPopover
    return this.kind === 'control' ? this : null
  }
  matches(selector: string) {
    return (
      (selector === '[popovertarget]' && this.answeredBy === 'popover') || (selector === '[commandfor]' && this.answeredBy === 'command')
    )
  }
  get type() {
    return this.answeredBy === 'form' ? 'submit' : 'button'
  }
  get form() {
    return this.answeredBy === 'form' ? {} : null
  }
  click() {
    this.log.push(`replay ${this.name}`)
  }
}

type Listener = (event: FakeEvent) => void
class FakeEvent {
  prevented = false
  stopped = false
  constructor(
    readonly type: string,
    readonly target: unknown,
    readonly newState?: string,
  ) {}
  preventDefault() {
    this.prevented = true
  }
  stopImmediatePropagation() {
    this.stopped = true
  }
}

/**
 * Runs an on-interaction bootstrap against a window that records listeners; answers its handles.
 * `commands`: whether the browser runs a button's `commandfor` by itself; `popovers`: whether it has popovers.
 */
function runUntilInteraction(code: string, { failImport = '', commands = true, popovers = true } = {}) {
  const log: string[] = []
  const listeners = new Map<string, Listener[]>()
  const addEventListener = (name: string, listener: Listener) => listeners.set(name, [...(listeners.get(name) ?? []), listener])
  const removeEventListener = (name: string, listener: Listener) =>
    listeners.set(
      name,
      (listeners.get(name) ?? []).filter((known) => known !== listener),
    )
  const dispatch = (name: string, target: unknown = null, newState?: string) => {
    const event = new FakeEvent(name, target, newState)
    for (const listener of listeners.get(name) ?? []) {
      listener(event)
      if (event.stopped) break
    }
    return event
  }
  const style: Record<string, string> = {}
  /** The page's popover toggles by the selector that finds them. */
  const toggles = new Map<string, { setAttribute: (name: string, value: string) => void }[]>()
  const document = {
    documentElement: { style: Object.assign(style, { removeProperty: (name: string) => delete style[name] }) },
    createElement: () => ({ rel: '', href: '' }),
    head: { append: (link: { rel: string; href: string }) => log.push(`${link.rel} ${link.href}`) },
    querySelectorAll: (selector: string) => toggles.get(selector) ?? [],
  }
  const CSS = { escape: (text: string) => text }
  const HTMLButtonElement = { prototype: commands ? { commandForElement: null } : {} }
  const HTMLElement = { prototype: popovers ? { popover: null } : {} }
  const load = (href: string) => {
    log.push(`import ${href}`)
    return href === failImport ? Promise.reject(new Error('offline')) : Promise.resolve({ href })
  }
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...args: unknown[]) => Promise<void>
  const window: Record<string, unknown> = {}
  const running = new AsyncFunction(
    'document',
    'addEventListener',
    'removeEventListener',
    'Element',
    'HTMLButtonElement',
    'HTMLElement',
    'CSS',
    'load',
    'window',
    code.replace(/\bimport\(/g, 'load('),
  )(document, addEventListener, removeEventListener, FakeElement, HTMLButtonElement, HTMLElement, CSS, load, window)
  const settle = async () => {
    for (let round = 0; round < 20; round++) await Promise.resolve()
  }
  const element = (name: string, kind: FakeElement['kind'], answeredBy: AnsweredBy = null) => new FakeElement(name, kind, log, answeredBy)
  return { log, window, style, running, dispatch, settle, element, toggles }
}

describe('deferImports on a reading page', () => {
  const code = deferImports(BOOTSTRAP, ['/assets/entry.client-c.js', '/assets/core-d.js'], 'on-interaction') ?? ''

  it('imports nothing until a control that needs React is used, then adds the hints and imports in order', async () => {
    expect(code).toContain(`${INTERACTION_PRELOAD_MARKER} ["/assets/entry.client-c.js","/assets/core-d.js"]`)
    const page = runUntilInteraction(code)
    const checkout = page.element('checkout button', 'control')
    await page.settle()
    expect(page.log).toEqual([])
    page.dispatch('keydown', page.element('page text', 'text'))
    page.dispatch('focusin', page.element('a link', 'link'))
    await page.settle()
    expect(page.log).toEqual([])
    page.dispatch('keydown', checkout)
    await page.running
    expect(page.log).toEqual([
      'modulepreload /assets/entry.client-c.js',
      'modulepreload /assets/core-d.js',
      'import /assets/root-a.js',
      'import /assets/home-b.js',
      'import /assets/entry.client-c.js',
    ])
    expect(page.window.__reactRouterRouteModules).toEqual({
      root: { href: '/assets/root-a.js' },
      'routes/home': { href: '/assets/home-b.js' },
    })
  })

  it('lets the browser answer the controls it can: a popover toggle, a dialog command, a form submit', async () => {
    const page = runUntilInteraction(code)
    for (const [name, answeredBy] of [
      ['menu toggle', 'popover'],
      ['Watch Demo', 'command'],
      ['theme button', 'form'],
    ] as const) {
      const control = page.element(name, 'control', answeredBy)
      page.dispatch('pointerover', control)
      page.dispatch('focusin', control)
      page.dispatch('pointerdown', control)
      expect(page.dispatch('click', control).prevented).toBe(false)
    }
    await page.settle()
    expect(page.log).toEqual([])
    expect(page.style.cursor).toBeUndefined()
  })

  it('where the browser does not run commands, a dialog command needs React', async () => {
    const page = runUntilInteraction(code, { commands: false })
    const watch = page.element('Watch Demo', 'control', 'command')
    expect(page.dispatch('click', watch).prevented).toBe(true)
    await page.running
    page.dispatch(HYDRATED_EVENT)
    expect(page.log.at(-1)).toBe('replay Watch Demo')
  })

  it('where the browser has no popovers, the menu toggle needs React and links close nothing', async () => {
    const page = runUntilInteraction(code, { popovers: false })
    const link = page.element('Features', 'link')
    link.openPopover = {
      hidePopover: () => {
        throw new Error('no popovers here')
      },
    }
    expect(page.dispatch('click', link).prevented).toBe(false)
    const toggle = page.element('menu toggle', 'control', 'popover')
    expect(page.dispatch('click', toggle).prevented).toBe(true)
    await page.running
    page.dispatch(HYDRATED_EVENT)
    expect(page.log.at(-1)).toBe('replay menu toggle')
  })

  it('closes the open popover a link was followed in, until React has hydrated', async () => {
    const page = runUntilInteraction(code)
    const link = page.element('Features', 'link')
    let hidden = 0
    link.openPopover = { hidePopover: () => void hidden++ }
    expect(page.dispatch('click', link).prevented).toBe(false)
    expect(hidden).toBe(1)
    page.dispatch('click', page.element('Pricing outside the menu', 'link'))
    expect(hidden).toBe(1)
    page.dispatch('click', page.element('checkout', 'control'))
    await page.running
    page.dispatch(HYDRATED_EVENT)
    page.dispatch('click', link)
    expect(hidden).toBe(1)
  })

  it("keeps a popover's toggles' aria-expanded in step with it, before and after hydration", async () => {
    const page = runUntilInteraction(code)
    const expanded: string[] = []
    page.toggles.set('[popovertarget="mobile-menu"]', [{ setAttribute: (name, value) => expanded.push(`${name}=${value}`) }])
    const menu = Object.assign(page.element('menu', 'text'), { id: 'mobile-menu', hasAttribute: (name: string) => name === 'popover' })
    page.dispatch('toggle', menu, 'open')
    page.dispatch('toggle', Object.assign(page.element('details', 'text'), { id: 'faq', hasAttribute: () => false }), 'open')
    page.dispatch('click', page.element('checkout', 'control'))
    await page.running
    page.dispatch(HYDRATED_EVENT)
    page.dispatch('toggle', menu, 'closed')
    expect(expanded).toEqual(['aria-expanded=true', 'aria-expanded=false'])
  })

  it('holds a click on a control that needs React until React has hydrated, then replays it on the same element; links pass', async () => {
    const page = runUntilInteraction(code)
    const button = page.element('checkout button', 'control')
    const link = page.element('link text', 'link')
    page.dispatch('pointerdown', button)
    const held = page.dispatch('click', button)
    expect(held.prevented && held.stopped).toBe(true)
    expect(page.style.cursor).toBe('progress')
    expect(page.dispatch('click', link).prevented).toBe(false)
    const disabled = page.element('disabled button', 'control')
    disabled.disabled = true
    expect(page.dispatch('click', disabled).prevented).toBe(false)
    await page.running
    expect(page.log).not.toContain('replay checkout button')

    page.dispatch(HYDRATED_EVENT)
    expect(page.log.at(-1)).toBe('replay checkout button')
    expect(page.style.cursor).toBeUndefined()
    // Hydrated: clicks are React's again.
    expect(page.dispatch('click', button).prevented).toBe(false)
  })

  it('starts when the pointer comes over a control that needs React, not over anything else', async () => {
    const page = runUntilInteraction(code)
    page.dispatch('pointerover', page.element('paragraph', 'text'))
    page.dispatch('pointerover', page.element('menu toggle', 'control', 'popover'))
    await page.settle()
    expect(page.log).toEqual([])
    page.dispatch('pointerover', page.element('checkout button', 'control'))
    await page.running
    expect(page.log).toContain('import /assets/entry.client-c.js')
  })

  it('starts on a click alone (a click dispatched without a pointer)', async () => {
    const page = runUntilInteraction(code)
    const button = page.element('checkout button', 'control')
    expect(page.dispatch('click', button).prevented).toBe(true)
    await page.running
    expect(page.log).toContain('import /assets/entry.client-c.js')
  })

  it('replays a button pressed twice before hydration once (a double tap is one press)', async () => {
    const page = runUntilInteraction(code)
    const toggle = page.element('plan toggle', 'control')
    const gone = page.element('re-rendered button', 'control')
    page.dispatch('click', toggle)
    page.dispatch('click', toggle)
    page.dispatch('click', gone)
    gone.isConnected = false
    await page.running
    page.dispatch(HYDRATED_EVENT)
    expect(page.log.filter((line) => line.startsWith('replay'))).toEqual(['replay plan toggle'])
  })

  for (const failing of ['/assets/root-a.js', '/assets/entry.client-c.js']) {
    it(`replays held clicks without React and lets clicks through when ${failing} cannot load`, async () => {
      const page = runUntilInteraction(code, { failImport: failing })
      const button = page.element('checkout button', 'control')
      expect(page.dispatch('click', button).prevented).toBe(true)
      await expect(page.running).rejects.toThrow('offline')
      expect(page.log.at(-1)).toBe('replay checkout button')
      expect(page.dispatch('click', button).prevented).toBe(false)
      expect(page.style.cursor).toBeUndefined()
    })
  }
})

describe('paintFirst', () => {
  it('takes the modulepreload links out and lists them in the bootstrap, in document order', () => {
    const adjusted = paintFirst(routerScripts())
    expect(adjusted).not.toBeNull()
    const html = renderToStaticMarkup(adjusted as ReactElement)
    expect(html).not.toContain('<link')
    expect(html).toContain(`${PRELOAD_MARKER} ["/assets/entry.client-c.js","/assets/core-d.js","/assets/root-a.js","/assets/home-b.js"]`)
    expect(html).toContain('const route0 = await import("/assets/root-a.js");')
    // The context script and the nonces are untouched.
    expect(html).toContain('<script nonce="n">window.__reactRouterContext = {};</script>')
    expect(html).toMatch(/<script nonce="n" type="module" async="">/)
  })

  it('names the first interaction as the wait on a reading page', () => {
    const html = renderToStaticMarkup(paintFirst(routerScripts(), 'on-interaction') as ReactElement)
    expect(html).toContain(`${INTERACTION_PRELOAD_MARKER} ["/assets/entry.client-c.js"`)
    expect(html).not.toContain(PRELOAD_MARKER)
    expect(html).not.toContain('<link')
  })

  it('leaves output it does not recognise unchanged', () => {
    expect(paintFirst(routerScripts('import { x } from "/assets/a.js";'))).toBeNull()
    expect(paintFirst(createElement(Fragment, null, createElement('script', { type: 'module' })))).toBeNull()
  })
})
