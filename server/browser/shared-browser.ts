import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import type { Logger } from '#server/logger.ts'
import { loadPlaywright } from './playwright.ts'

/** The shared browser: acquire() launches it when needed and throws when it cannot start. */
export interface BrowserSource {
  acquire(): Promise<Browser>
  release(): void
}

/** Chromium's switches for a closed network (as tests/e2e use them); a container adds --no-sandbox. */
const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // WebRTC may not send UDP past the proxy (STUN/TURN to any address, private ones included): it
  // can only use TCP through the proxy, where the target guard decides (issue 19). QUIC, and so
  // WebTransport, is off above.
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
]

const LAUNCH_TIMEOUT_MS = 30_000
/** An unused browser is closed after this long, so an idle server does not keep Chromium's memory. */
const BROWSER_IDLE_MS = 60_000

/** The browser could not start (no executable, or it failed to launch). */
export class BrowserUnavailableError extends Error {}

/**
 * One Chromium per process, shared by its runs (each gets a fresh context): launched on first
 * use, launched again if it dies, closed when idle. A missing executable is reported once.
 */
export function createSharedBrowser(options: {
  executablePath: string
  logger: Logger
  idleMs?: number
  /**
   * Chromium's own sandbox. Off by default: the server runs in a container, usually as root, where
   * Chromium cannot start with it (the target guard and a fresh context per run contain its pages).
   * The local runner keeps it on the member's machine.
   */
  sandbox?: boolean
}): BrowserSource & {
  close(): Promise<void>
  /** Whether the executable exists (checked again at every launch). */
  available(): boolean
} {
  const { executablePath, logger } = options
  let browser: Browser | null = null
  let launching: Promise<Browser> | null = null
  let users = 0
  let idleTimer: NodeJS.Timeout | null = null
  let warned = false

  async function launch(): Promise<Browser> {
    if (!existsSync(executablePath)) {
      if (!warned) {
        logger.warn(
          { executablePath },
          `Chromium was not found at ${executablePath}: cloud runs fail (and are refunded) until it is installed (apt-get install chromium) or CHROMIUM_PATH points to it`,
        )
        warned = true
      }
      throw new BrowserUnavailableError(`Chromium was not found at ${executablePath}`)
    }
    try {
      const { chromium } = await loadPlaywright()
      const args = options.sandbox ? CHROMIUM_ARGS : ['--no-sandbox', ...CHROMIUM_ARGS]
      const started = await chromium.launch({
        executablePath,
        headless: true,
        chromiumSandbox: options.sandbox === true,
        args,
        timeout: LAUNCH_TIMEOUT_MS,
      })
      warned = false
      started.on('disconnected', () => {
        if (browser === started) {
          browser = null
          logger.warn('the cloud browser stopped; it starts again with the next run')
        }
      })
      logger.info({ version: started.version() }, 'cloud browser started')
      return started
    } catch (error) {
      if (!warned) {
        logger.warn({ err: error, executablePath }, 'the cloud browser could not start: cloud runs fail (and are refunded)')
        warned = true
      }
      throw new BrowserUnavailableError(`Chromium did not start: ${(error as Error).message.split('\n')[0]}`)
    }
  }

  async function closeBrowser() {
    const current = browser
    browser = null
    await current?.close().catch(() => {})
  }

  return {
    available: () => existsSync(executablePath),
    async acquire() {
      users += 1
      if (idleTimer) clearTimeout(idleTimer)
      idleTimer = null
      try {
        if (browser?.isConnected()) return browser
        launching ??= launch().finally(() => {
          launching = null
        })
        const started = await launching
        browser = started
        return started
      } catch (error) {
        users -= 1
        throw error
      }
    },
    release() {
      users = Math.max(0, users - 1)
      if (users === 0 && browser) {
        idleTimer = setTimeout(() => void closeBrowser(), options.idleMs ?? BROWSER_IDLE_MS)
        idleTimer.unref()
      }
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer)
      await launching?.catch(() => {})
      await closeBrowser()
    },
  }
}

export type SharedBrowser = ReturnType<typeof createSharedBrowser>
