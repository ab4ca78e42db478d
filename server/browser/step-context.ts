import type { Locator, Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { ExtractedTable } from '#common/extracted-table.ts'
import { short } from '#common/step-log-words.ts'
import type { Target, TargetAlternative } from '#common/targets.ts'
import { isPlaywrightTimeout } from './playwright.ts'
import type { BlockedRequest, TargetGuard } from './target-guard.ts'

// What a step is performed with (the run's page, limits and records) and how its failures are
// told; step-actions.ts and verb-actions.ts perform the steps.

/** A step that did not work: the automation's fault (not refunded). The message names the cause. */
export class StepFailure extends Error {}

export const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`

/** The first line of a Playwright error without its 'locator.click: ' prefix and call log. */
export function cleanMessage(error: unknown): string {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
  return short(first.replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '').replace(/^Error: /, ''), 300)
}

/** What a step needs from the run it belongs to (step-executor.ts makes it). */
export interface StepContext {
  page: Page
  guard: TargetGuard
  /** Requests the guard refused so far, in order. */
  blocked: readonly BlockedRequest[]
  /** Time a step may still take: its own limit, or what is left of the run's. */
  timeout(): number
  /** The step limit, in words ('15 s'). */
  stepSeconds: string
  /** False once the run was cancelled, timed out or the server is stopping. */
  running(): boolean
  browserConnected(): boolean
  stopSignal: AbortSignal
  progress: { log(level: 'info' | 'warn' | 'error', message: string): void }
  extracted: ExtractedTable
  takeScreenshot(step: number, name: string, timeoutMs: number): Promise<void>
  /** Another way than the target's first found the element: the run records the repair. */
  onRepaired(step: number, target: Target, repair: Repair): Promise<void>
  /** The way of a target that found the step's element (the run's timeline says it). */
  onFound?(used: TargetAlternative, how: Repair['how'] | null): void
  /** Looks for the element a broken target meant (self-repair); absent when the automation turned it off. */
  repair?: StepRepair | null
  /** Fields that were given a vault value: every screenshot of the run masks them (docs/decisions/025). */
  masked?: Locator[]
  /** The current item of the for-each block the step is in (docs/decisions/046): its elements are looked for there first. */
  within?: Locator | null
  /** A switchTab step found the tab or popup the run goes on in (absent: this runner stays in its one page). */
  switchPage?(page: Page): void
}

/** How a step found its element when its target's first way did not. */
export interface Repair {
  used: TargetAlternative
  how: 'alternative' | 'similar' | 'model'
  /** The whole target that worked, best way first. */
  target: Target
}

/** Self-repair: the target the broken one meant, found on the page now, or null. */
export type StepRepair = (page: Page, step: AutomationStep, target: Target) => Promise<{ target: Target; how: 'similar' | 'model' } | null>

/** A Playwright call inside a step: its errors are the automation's (a timeout says what). */
export async function inPage<T>(context: StepContext, call: () => Promise<T>, onTimeout: () => string | Promise<string>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (!context.running() || !context.browserConnected()) throw error
    if (await isPlaywrightTimeout(error)) throw new StepFailure(await onTimeout())
    throw new StepFailure(cleanMessage(error))
  }
}
