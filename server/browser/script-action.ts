import type { Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import { short } from '#common/step-log-words.ts'
import { seconds, StepFailure } from './step-context.ts'

type ScriptStep = Extract<AutomationStep, { type: 'script' }>

/** The longest text a script's result is kept as. */
export const MAX_SCRIPT_RESULT = 10_000
const DEFAULT_SCRIPT_MS = 10_000

/** What a script is given: the data row it runs for, the values kept so far and the run's inputs. */
export interface ScriptArguments {
  row: Record<string, string> | null
  values: Record<string, string>
  inputs: Record<string, string>
}

/**
 * Runs a member's script step in the page (docs/decisions/046): its code is the body of an async
 * function of (row, values, inputs), evaluated by the browser's debugging protocol, so a page's
 * content security policy does not stop it, and in the page's own world, so its requests go
 * where the page's go: through the run's target guard. One that runs longer than its time is
 * stopped (even a loop that never yields) and fails. Answers what it returned as text (undefined
 * and null: empty; objects as JSON), at most MAX_SCRIPT_RESULT characters.
 */
export async function runScript(page: Page, step: ScriptStep, args: ScriptArguments, limitMs: number): Promise<string> {
  const timeoutMs = Math.min(step.timeoutMs ?? DEFAULT_SCRIPT_MS, limitMs)
  // The code is the member's; the arguments are data, passed as JSON (never spliced in as code).
  const expression = `(async (row, values, inputs) => {\n${step.code}\n})(...${JSON.stringify([args.row, args.values, args.inputs])})`
  const wrapped = `Promise.resolve(${expression}).then((result) => result === undefined || result === null ? '' : typeof result === 'string' ? result : JSON.stringify(result) ?? String(result))`
  // Opened before the script starts: a page whose script never yields answers nothing new.
  const session = await page.context().newCDPSession(page)
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ScriptTimeout()), timeoutMs)
  })
  try {
    const result = await Promise.race([page.evaluate(wrapped) as Promise<string>, timedOut])
    return result.length > MAX_SCRIPT_RESULT ? result.slice(0, MAX_SCRIPT_RESULT) : result
  } catch (error) {
    if (error instanceof ScriptTimeout) {
      // Ends whatever JavaScript the page is running (a loop that never yields would hold the page).
      await session.send('Runtime.terminateExecution').catch(() => {})
      throw new StepFailure(`the script ran longer than ${seconds(timeoutMs)} and was stopped`)
    }
    throw new StepFailure(`the script failed: ${short(scriptError(error), 300)}`)
  } finally {
    clearTimeout(timer)
    await session.detach().catch(() => {})
  }
}

class ScriptTimeout extends Error {}

/** The script's own error, without Playwright's wording around it. */
function scriptError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const first = message.split('\n')[0] ?? message
  return first.replace(/^page\.evaluate: /, '').replace(/^Error: /, '')
}
