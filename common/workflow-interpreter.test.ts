import { describe, expect, it } from 'vitest'
import { parseSteps, type AutomationStep } from './automation-steps.ts'
import { RepeatLimit, runWorkflow, type StepScope, type WorkflowRunner } from './workflow-interpreter.ts'

class Failure extends Error {}

/** A runner that records what it performed; `holds` and `fails` decide per step and scope. */
function recorder(options: {
  holds?: (index: number, scope: StepScope, calls: number) => boolean
  items?: number
  fails?: (index: number, scope: StepScope) => boolean
}) {
  const done: string[] = []
  let conditionCalls = 0
  const runner: WorkflowRunner = {
    perform: async (step, index, scope) => {
      if (options.fails?.(index, scope)) throw new Failure(`step ${index + 1} failed`)
      done.push(`${index + 1}${scope.row ? `r${scope.row.n + 1}` : ''}${scope.item ? `i${scope.item.n + 1}` : ''}`)
    },
    holds: async (_step, index, scope) => options.holds?.(index, scope, ++conditionCalls) ?? false,
    countItems: async () => options.items ?? 0,
    log: () => {},
    rowFailure: async (error) => (error instanceof Failure ? error.message : null),
    running: () => true,
  }
  return { runner, done }
}

const wait: AutomationStep = { type: 'wait', ms: 1 }
const steps = (list: unknown[]) => {
  const parsed = parseSteps(list)
  if (!parsed.ok) throw new Error(parsed.issues.map((issue) => issue.message).join('; '))
  return parsed.steps
}

describe('runWorkflow', () => {
  it('runs the then-steps when the condition holds and the else-steps when it does not', async () => {
    const list = steps([{ type: 'if', when: 'valueIs', value: 'a', text: 'a' }, wait, { type: 'else' }, wait, { type: 'end' }, wait])
    const yes = recorder({ holds: () => true })
    await runWorkflow(list, [], yes.runner)
    expect(yes.done).toEqual(['2', '6'])
    const no = recorder({ holds: () => false })
    await runWorkflow(list, [], no.runner)
    expect(no.done).toEqual(['4', '6'])
  })

  it('goes through every row, a failing row reported with its reason and the others done; next marks a row skipped', async () => {
    const list = steps([
      { type: 'forEachRow' },
      { type: 'if', when: 'valueIs', value: '{{row.name}}', text: 'skip me' },
      { type: 'next' },
      { type: 'end' },
      wait,
      wait,
      { type: 'end' },
      wait,
    ])
    const rows = [{ name: 'a' }, { name: 'skip me' }, { name: 'c' }, { name: 'd' }]
    const { runner, done } = recorder({
      holds: (_index, scope) => scope.row?.values.name === 'skip me',
      fails: (index, scope) => index === 5 && scope.row?.n === 2,
    })
    const result = await runWorkflow(list, rows, runner)
    expect(done).toEqual(['5r1', '6r1', '5r3', '5r4', '6r4', '8'])
    expect(result.rows).toEqual([
      { row: 1, status: 'done' },
      { row: 2, status: 'skipped' },
      { row: 3, status: 'failed', error: 'step 6 failed' },
      { row: 4, status: 'done' },
    ])
  })

  it("stops at a failing row when the block says so: the error carries the rows' outcomes, later rows not run", async () => {
    const list = steps([{ type: 'forEachRow', onRowError: 'stop' }, wait, { type: 'end' }])
    const { runner } = recorder({ fails: (_index, scope) => scope.row?.n === 1 })
    const error = await runWorkflow(list, [{ a: '1' }, { a: '2' }, { a: '3' }], runner).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Failure)
    expect((error as { rowOutcomes?: unknown }).rowOutcomes).toEqual([
      { row: 1, status: 'done' },
      { row: 2, status: 'failed', error: 'step 2 failed' },
      { row: 3, status: 'not run' },
    ])
  })

  it('goes through each item, at most max of them, nested in a repeat that checks before each round', async () => {
    const list = steps([
      { type: 'repeat', when: 'textShown', text: 'done', max: 5 },
      { type: 'forEach', target: [{ by: 'css', selector: 'li' }], max: 2 },
      wait,
      { type: 'end' },
      { type: 'end' },
    ])
    const { runner, done } = recorder({ items: 3, holds: (_index, _scope, calls) => calls > 2 })
    await runWorkflow(list, [], runner)
    expect(done).toEqual(['3i1', '3i2', '3i1', '3i2'])
  })

  it('fails a repeat whose condition never holds after its most rounds', async () => {
    const list = steps([{ type: 'repeat', when: 'textShown', text: 'x', max: 3 }, wait, { type: 'end' }])
    const { runner, done } = recorder({ holds: () => false })
    await expect(runWorkflow(list, [], runner)).rejects.toBeInstanceOf(RepeatLimit)
    expect(done).toEqual(['2', '2', '2'])
  })

  it('ends at a stop step with its outcome and message, the steps after it not run', async () => {
    const list = steps([wait, { type: 'stop', outcome: 'failed', message: 'Out of stock' }, wait])
    const { runner, done } = recorder({})
    expect(await runWorkflow(list, [], runner)).toEqual({ stopped: { outcome: 'failed', message: 'Out of stock', step: 2 }, rows: [] })
    expect(done).toEqual(['1'])
  })

  it('a failure outside any row ends the run', async () => {
    const { runner } = recorder({ fails: () => true })
    await expect(runWorkflow(steps([wait]), [], runner)).rejects.toBeInstanceOf(Failure)
  })
})

describe('blocks in parseSteps', () => {
  const issues = (list: unknown[]) => {
    const parsed = parseSteps(list)
    return parsed.ok ? [] : parsed.issues.map((issue) => issue.message)
  }

  it('refuses ends, elses and nexts out of place, blocks left open and rows inside rows, naming the step', () => {
    expect(issues([{ type: 'end' }])).toEqual(['Step 1 (end): this end closes no block (if, repeat, for each)'])
    expect(issues([{ type: 'forEachRow' }, { type: 'else' }, { type: 'end' }])).toEqual([
      'Step 2 (else): an else belongs inside an if block, before its end',
    ])
    expect(issues([{ type: 'if', when: 'textShown', text: 'a' }, { type: 'else' }, { type: 'else' }, { type: 'end' }])).toEqual([
      'Step 3 (else): an if block has at most one else',
    ])
    expect(issues([{ type: 'next' }])).toEqual(['Step 1 (next): a "next" step skips to the next round of a loop, so it belongs inside one'])
    expect(issues([{ type: 'repeat', when: 'textShown', text: 'a' }, wait])).toEqual([
      'Step 1 (repeat): this block is never closed: add an end step after its steps',
    ])
    expect(issues([{ type: 'forEachRow' }, { type: 'forEachRow' }, { type: 'end' }, { type: 'end' }])).toEqual([
      'Step 2 (forEachRow): a "for each row" block cannot be inside another: a run has one table of rows',
    ])
  })

  it('refuses {{row.…}} outside a "for each row" block, and a condition without the parts it needs', () => {
    expect(issues([{ type: 'navigate', url: 'https://example.com/{{row.id}}' }])).toEqual([
      'Step 1 (navigate): {{row.id}} names a column of the run\'s rows, so it belongs inside a "for each row" block',
    ])
    expect(issues([{ type: 'if', when: 'fieldIs', text: 'x' }, { type: 'end' }])).toEqual([
      'Step 1 (if): element is required for this condition',
    ])
    expect(issues([{ type: 'if', when: 'valueAbove', text: '3' }, { type: 'end' }])).toEqual([
      'Step 1 (if): value is required for this condition',
    ])
    expect(issues([{ type: 'script', code: '  ' }])).toEqual(['Step 1 (script): code is required'])
  })
})
