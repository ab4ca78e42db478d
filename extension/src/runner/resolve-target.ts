import type { Target, TargetAlternative } from '#common/targets.ts'
import { alternativeMatches } from './page-matches-all.ts'

export interface FoundInPage {
  /** The elements it found: exactly one for match 'one'; every match for 'any' (extraction). */
  elements: Element[]
  /** Which alternative matched (0: the first, as written). */
  index: number
  used: TargetAlternative
}

export interface NotFoundInPage {
  /** How many visible elements each alternative matched at the last look (-1: it could not be read). */
  counts: number[]
}

/** How long the first alternative has to appear before a later one may stand in for it (as on the server). */
const FIRST_CHOICE_MS = 1_500
const POLL_MS = 100

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Finds a target's element in this page as the server's resolveTarget does with Playwright
 * (server/browser/target-resolver.ts, docs/decisions/019): the first alternative that matches
 * exactly one visible element (`any`: at least one) wins, looking again every 100 ms until the
 * time is up; for the first 1.5 s (a third of the time at most) only the first alternative may win.
 */
export async function resolveInPage(
  doc: Document,
  target: Target,
  options: { timeoutMs: number; match: 'one' | 'any'; signal?: AbortSignal },
): Promise<FoundInPage | NotFoundInPage> {
  const started = Date.now()
  const firstChoiceUntil = started + Math.min(FIRST_CHOICE_MS, options.timeoutMs / 3)
  const fits = (count: number) => (options.match === 'one' ? count === 1 : count >= 1)
  for (;;) {
    const found = target.map((alternative) => {
      try {
        return alternativeMatches(alternative, doc)
      } catch {
        return null
      }
    })
    const counts = found.map((elements) => elements?.length ?? -1)
    const index = counts.findIndex(fits)
    if (index === 0 || (index > 0 && Date.now() >= firstChoiceUntil)) {
      return { elements: found[index] as Element[], index, used: target[index] as TargetAlternative }
    }
    if (Date.now() - started >= options.timeoutMs || options.signal?.aborted) return { counts }
    await sleep(POLL_MS)
  }
}
