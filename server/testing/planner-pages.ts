import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { stepInWords } from '#common/step-words.ts'
import { performExtract } from '#server/browser/extract-action.ts'
import { withGuardedPage } from '#server/browser/guarded-page.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { resolveTarget } from '#server/browser/target-resolver.ts'
import { createExplorer } from '#server/features/planning/explorer.ts'
import { readInstructions } from '#server/features/planning/instructions.ts'
import { planOffline } from '#server/features/planning/offline-planner.ts'

// The harness of the offline planner's page tests: small pages served on 127.0.0.1, a sentence
// planned on one of them in the cloud browser (as the planning service does), and the planned
// steps run again on a fresh page as a run would, with what each extract step read.

/** A step in words without its counts of fallbacks. */
export const inWords = (step: Parameters<typeof stepInWords>[0]) => stepInWords(step).replace(/ \(\+\d+ fallbacks?\)/g, '')

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => boolean | void

/**
 * Serves the pages by path (`handle` answers other requests first when it returns true) for the
 * test file that calls it (started before its tests, closed after them), and plans and runs on
 * them; `state` says what the page shows, for the tests to compare.
 */
export function plannerPages<Shown>(pages: Record<string, string>, state: (page: Page) => Promise<Shown>, handle?: Handler) {
  const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger: pino({ level: 'silent' }) })
  let server: Server | null = null
  let site = ''
  const options = { browsers, privateTargets: 'loopback' as const, stepTimeoutMs: 5_000 }

  const served = {
    /** The served site's origin. */
    get site() {
      return site
    },
    async start() {
      server = createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://localhost')
        if (handle?.(request, response, url)) return
        const page = pages[url.pathname]
        response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'Not found')
      })
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
      site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    async close() {
      await browsers.close()
      server?.closeAllConnections()
      await new Promise((resolve) => server?.close(resolve))
    },
    /** Plans the sentence on a page and says what the page shows at the end of planning. */
    plan: (description: string, start: string) =>
      withGuardedPage(
        options,
        async ({ session, perform }) => {
          const draft = await planOffline(
            readInstructions(description),
            createExplorer({ page: session.page, perform, deadline: Date.now() + 60_000 }),
            start,
          )
          return { draft, shown: await state(session.page) }
        },
        { timeLimitMs: 60_000 },
      ),
    /**
     * Runs the steps on a fresh page, as a run would, and says what the page shows then and what
     * each extract step read: perform keeps the values it reads to itself, so after it each extract
     * step is read once more by the run's own performExtract, its values kept here.
     */
    run: (steps: AutomationStep[]) =>
      withGuardedPage(
        options,
        async ({ session, perform }) => {
          const extracted: Record<string, (string | null)[]> = {}
          const page = session.page
          for (const [index, step] of steps.entries()) {
            await perform(step, index + 1)
            if (step.type !== 'extract') continue
            await performExtract(
              {
                page,
                timeout: () => 5_000,
                running: () => true,
                stopSignal: new AbortController().signal,
                log: () => {},
                find: async (target) => {
                  const found = await resolveTarget(page, target, { timeoutMs: 5_000, match: 'any' })
                  if (!('locator' in found)) throw new Error(`nothing matches the extract step's target`)
                  return found.locator
                },
                inPage: (call) => call(),
                add: (field, values) => void (extracted[field] = values),
                addRecords: () => {},
              },
              step,
            )
          }
          return { shown: await state(page), extracted }
        },
        { timeLimitMs: 60_000 },
      ),
  }
  beforeAll(() => served.start())
  afterAll(() => served.close())
  return served
}
