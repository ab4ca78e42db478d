import { describe, expect, it } from 'vitest'
import type { OnError } from '#common/automation-steps.ts'
import { StepFailure } from '#server/browser/step-actions.ts'
import { performWithOnError } from './step-on-error.ts'

/** A step that fails `failures` times with a step failure, then works; what was logged. */
function attempts(failures: number, onError: OnError | undefined, options: { running?: () => boolean; error?: Error } = {}) {
  const log: string[] = []
  let tries = 0
  const run = performWithOnError({
    perform: () => {
      tries += 1
      if (tries <= failures) return Promise.reject(options.error ?? new StepFailure('the button “Send” was not found within 1 s'))
      return Promise.resolve()
    },
    onError,
    label: 'Step 2 (click)',
    log: (level, message) => log.push(`${level}: ${message}`),
    flush: () => Promise.resolve(),
    running: options.running ?? (() => true),
    signal: new AbortController().signal,
  })
  return { run, log, tries: () => tries }
}

describe('a step under its onError', () => {
  it('without onError, fails at the first failure', async () => {
    const step = attempts(1, undefined)
    await expect(step.run).rejects.toThrow('the button “Send” was not found within 1 s')
    expect(step.tries()).toBe(1)
  })

  it('tries again as often as it says, waiting between tries, and is done when a try works', async () => {
    const started = Date.now()
    const step = attempts(2, { retries: 3, delayMs: 50, then: 'fail' })
    await expect(step.run).resolves.toEqual({ kind: 'done' })
    expect(step.tries()).toBe(3)
    expect(Date.now() - started).toBeGreaterThanOrEqual(100)
    expect(step.log).toEqual([
      'warn: Step 2 (click): the button “Send” was not found within 1 s; trying again in 0.1 s (retry 1 of 3).',
      'warn: Step 2 (click): the button “Send” was not found within 1 s; trying again in 0.1 s (retry 2 of 3).',
    ])
  })

  it("after its retries, 'fail' fails with the step's error", async () => {
    const step = attempts(5, { retries: 2, delayMs: 0, then: 'fail' })
    await expect(step.run).rejects.toBeInstanceOf(StepFailure)
    expect(step.tries()).toBe(3)
  })

  it("'skip' leaves the step out and says so", async () => {
    const step = attempts(5, { retries: 1, delayMs: 0, then: 'skip' })
    await expect(step.run).resolves.toEqual({ kind: 'skipped' })
    expect(step.tries()).toBe(2)
    expect(step.log.at(-1)).toBe(
      'warn: Step 2 (click): the button “Send” was not found within 1 s; the step is skipped and the run goes on.',
    )
  })

  it("'continue' goes on and hands back the failure the run ends with", async () => {
    const step = attempts(5, { retries: 0, delayMs: 0, then: 'continue' })
    await expect(step.run).resolves.toEqual({ kind: 'failedGoingOn', error: 'Step 2 (click): the button “Send” was not found within 1 s' })
    expect(step.log).toEqual(['error: Step 2 (click): the button “Send” was not found within 1 s; the run goes on and ends as failed.'])
  })

  it('never retries or skips what is not a step failure (a lost browser, an internal error)', async () => {
    const step = attempts(1, { retries: 3, delayMs: 0, then: 'skip' }, { error: new Error('Target closed') })
    await expect(step.run).rejects.toThrow('Target closed')
    expect(step.tries()).toBe(1)
  })

  it('stops trying once the run is stopped', async () => {
    let running = true
    const step = attempts(5, { retries: 3, delayMs: 0, then: 'skip' }, { running: () => running })
    running = false
    await expect(step.run).rejects.toBeInstanceOf(StepFailure)
    expect(step.tries()).toBe(1)
  })
})
