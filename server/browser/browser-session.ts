import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { watchRequests } from './page-settle.ts'
import { startGuardProxy, type GuardProxy } from './target-guard-proxy.ts'
import { guardRoutes, type BlockedRequest, type TargetGuard } from './target-guard.ts'

const VIEWPORT = { width: 1280, height: 800 }

export interface BrowserSession {
  context: BrowserContext
  page: Page
  /** The requests the target guard refused so far, in order. */
  blocked: BlockedRequest[]
  close(): Promise<void>
}

/**
 * A fresh, isolated browser context of the shared browser behind the target guard (ADR 012): every
 * connection goes through the guard's proxy (redirects, WebSockets, workers too) and every request
 * through its route check. Cloud runs, page inspection and planning all browse this way.
 */
export async function openBrowserSession(options: {
  browser: Browser
  guard: TargetGuard
  onBlocked?: (request: BlockedRequest) => void
  /** Whether the pages may download files (a run with download steps). */
  downloads?: boolean
  /** Cookies and storage to start with (a kept session: docs/decisions/025). */
  storageState?: BrowserContextOptions['storageState']
}): Promise<BrowserSession> {
  const blocked: BlockedRequest[] = []
  const onBlocked = (request: BlockedRequest) => {
    blocked.push(request)
    options.onBlocked?.(request)
  }
  let proxy: GuardProxy | null = null
  let context: BrowserContext | null = null
  try {
    proxy = await startGuardProxy(options.guard, onBlocked)
    context = await options.browser.newContext({
      proxy: { server: proxy.url },
      viewport: VIEWPORT,
      serviceWorkers: 'block',
      // Only a run with download steps takes files (docs/decisions/046); they are kept until the context closes.
      acceptDownloads: options.downloads ?? false,
      storageState: options.storageState,
    })
    await context.route('**/*', guardRoutes(options.guard, onBlocked))
    const page = await context.newPage()
    // From its first request on, so settling after the first load knows what is still loading.
    watchRequests(page)
    const opened = { context, proxy }
    return {
      context,
      page,
      blocked,
      async close() {
        await opened.context.close().catch(() => {})
        await opened.proxy.close().catch(() => {})
      },
    }
  } catch (error) {
    await context?.close().catch(() => {})
    await proxy?.close().catch(() => {})
    throw error
  }
}
