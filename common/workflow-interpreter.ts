import type { AutomationStep } from './automation-steps.ts'
import { blockStructure, type Block } from './step-blocks.ts'

// Runs a flat list of steps with blocks (docs/decisions/046): decides which step comes next, keeps
// the loops' rounds and each data row's outcome. What a step does, whether a condition holds and how
// many items a list has are the runner's (the cloud executor's, the local runner's): this module
// knows no browser.

type ConditionStep = Extract<AutomationStep, { type: 'if' | 'repeat' }>
type ForEachStep = Extract<AutomationStep, { type: 'forEach' }>

/** A row of the run's data: column name → text. */
export type DataRow = Record<string, string>

export const ROW_STATUSES = ['done', 'failed', 'skipped', 'not run'] as const
export type RowStatus = (typeof ROW_STATUSES)[number]
export interface RowOutcome {
  /** The row's number, from 1. */
  row: number
  status: RowStatus
  /** Why a failed row failed ('Step 4 (type): …'). */
  error?: string
}

/** Where a step runs: the data row and list item the blocks around it are on, and the values scripts kept. */
export interface StepScope {
  row?: { n: number; values: DataRow }
  /** The innermost "for each" round: the opener's index and the item's position (from 0). */
  item?: { opener: number; n: number }
  values: Record<string, string>
}

export interface WorkflowRunner {
  /** Performs one step that is not a block step; throws when it fails (after its own onError). */
  perform(step: AutomationStep, index: number, scope: StepScope): Promise<void>
  /** Whether an if's condition (a repeat's "until") holds now. */
  holds(step: ConditionStep, index: number, scope: StepScope): Promise<boolean>
  /** How many items a "for each" target matches now (0 when none). */
  countItems(step: ForEachStep, index: number, scope: StepScope): Promise<number>
  log(level: 'info' | 'warn' | 'error', message: string): void
  /** The failure as a row's reason ('Step 4 (type): …'), or null when it ends the run (a time limit, a stop). */
  rowFailure(error: unknown, index: number, scope: StepScope): Promise<string | null>
  /** Another step index to go on from before `index` runs (the sign-in block skipping itself), or null. */
  jumpFrom?(index: number): Promise<number | null>
  /** False once the run must end (cancelled, timed out): the interpreter throws `stopped`. */
  running(): boolean
}

export interface WorkflowResult {
  /** A stop step ended the run. */
  stopped?: { outcome: 'succeeded' | 'failed'; message: string; step: number }
  /** One per data row when the steps have a "for each row" block (rows never reached: 'not run'). */
  rows: RowOutcome[]
}

/** A round of a loop under way. */
type Frame =
  | { kind: 'repeat'; block: Block; round: number }
  | { kind: 'forEach'; block: Block; n: number; count: number }
  | { kind: 'forEachRow'; block: Block; n: number }

/** Thrown when a repeat reached its most rounds and its condition still does not hold. */
export class RepeatLimit extends Error {}

/**
 * Runs the steps from the first to the last, following their blocks: an `if` goes on at its first
 * step or after its `else`/`end`; a loop's `end` starts the next round or leaves it; `next` ends
 * the round; `stop` ends the run. A failure inside a "for each row" block ends that row (reported
 * with the reason) and the next row goes on, unless the block says to stop. The steps must have
 * passed parseSteps (their blocks are whole).
 */
export async function runWorkflow(
  steps: readonly AutomationStep[],
  rows: readonly DataRow[],
  runner: WorkflowRunner,
  options: {
    values?: Record<string, string>
    /** Where a resumed run starts (an index outside any block), and the rows an earlier run finished (kept, not run again). */
    startAt?: number
    finished?: readonly RowOutcome[]
  } = {},
): Promise<WorkflowResult> {
  const values = options.values ?? {}
  const { blocks } = blockStructure(steps)
  const blockAt = (index: number) => blocks.get(index) as Block
  const frames: Frame[] = []
  const outcomes = new Map<number, RowOutcome>((options.finished ?? []).map((outcome) => [outcome.row - 1, outcome]))
  const finishedBefore = new Set(outcomes.keys())
  const rowFrame = () => frames.findLast((frame) => frame.kind === 'forEachRow')

  function scope(): StepScope {
    const row = rowFrame()
    const item = frames.findLast((frame) => frame.kind === 'forEach')
    return {
      values,
      ...(row ? { row: { n: row.n, values: rows[row.n] ?? {} } } : {}),
      ...(item ? { item: { opener: item.block.opener, n: item.n } } : {}),
    }
  }

  /** Starts the frame's next round (the index of its first step) or leaves the loop (the index after its end). */
  async function enterRound(frame: Frame): Promise<number> {
    const opener = steps[frame.block.opener] as AutomationStep
    const leave = () => {
      frames.pop()
      return frame.block.end + 1
    }
    if (frame.kind === 'repeat') {
      if (await runner.holds(opener as ConditionStep, frame.block.opener, scope())) return leave()
      const max = (opener as Extract<AutomationStep, { type: 'repeat' }>).max
      if (frame.round >= max)
        throw new RepeatLimit(`the steps were repeated ${max} time${max === 1 ? '' : 's'} and the condition still does not hold`)
      frame.round += 1
      runner.log('info', `Step ${frame.block.opener + 1} (repeat): round ${frame.round}.`)
      return frame.block.opener + 1
    }
    if (frame.kind === 'forEach') {
      if (frame.n >= frame.count) return leave()
      runner.log('info', `Step ${frame.block.opener + 1} (forEach): item ${frame.n + 1} of ${frame.count}.`)
      return frame.block.opener + 1
    }
    while (finishedBefore.has(frame.n)) frame.n += 1
    if (frame.n >= rows.length) return leave()
    runner.log('info', `Step ${frame.block.opener + 1} (forEachRow): row ${frame.n + 1} of ${rows.length}.`)
    return frame.block.opener + 1
  }

  /** At a loop's end (or a `next`): the round is over. */
  function endRound(frame: Frame) {
    if (frame.kind === 'forEachRow' && !outcomes.has(frame.n)) outcomes.set(frame.n, { row: frame.n + 1, status: 'done' })
    if (frame.kind !== 'repeat') frame.n += 1
  }

  /** The frames above the row's, left when a row ends early. */
  function unwindTo(frame: Frame) {
    while (frames.at(-1) !== frame) frames.pop()
  }

  let index = options.startAt ?? 0
  while (index < steps.length) {
    if (!runner.running()) throw new Error('stopped')
    const jump = runner.jumpFrom ? await runner.jumpFrom(index) : null
    if (jump !== null) {
      index = jump
      continue
    }
    const step = steps[index] as AutomationStep
    try {
      switch (step.type) {
        case 'if': {
          const block = blockAt(index)
          index = (await runner.holds(step, index, scope())) ? index + 1 : (block.else ?? block.end) + 1
          break
        }
        case 'else':
          index = blockAt(index).end + 1
          break
        case 'end': {
          const frame = frames.at(-1)
          if (!frame || frame.block !== blockAt(index)) {
            index += 1
            break
          }
          endRound(frame)
          index = await enterRound(frame)
          break
        }
        case 'repeat': {
          const frame: Frame = { kind: 'repeat', block: blockAt(index), round: 0 }
          frames.push(frame)
          index = await enterRound(frame)
          break
        }
        case 'forEach': {
          const found = await runner.countItems(step, index, scope())
          const count = Math.min(found, step.max)
          runner.log(
            'info',
            `Step ${index + 1} (forEach): ${found} item${found === 1 ? '' : 's'}${found > step.max ? `, the first ${step.max} of them` : ''}.`,
          )
          const frame: Frame = { kind: 'forEach', block: blockAt(index), n: 0, count }
          frames.push(frame)
          index = await enterRound(frame)
          break
        }
        case 'forEachRow': {
          if (rows.length === 0) runner.log('warn', `Step ${index + 1} (forEachRow): the run has no data rows, so its steps are skipped.`)
          const frame: Frame = { kind: 'forEachRow', block: blockAt(index), n: 0 }
          frames.push(frame)
          index = await enterRound(frame)
          break
        }
        case 'next': {
          const loop = frames.at(-1) as Frame
          if (loop.kind === 'forEachRow') outcomes.set(loop.n, { row: loop.n + 1, status: 'skipped' })
          runner.log(
            'info',
            `Step ${index + 1} (next): on to the next ${loop.kind === 'forEachRow' ? 'row' : loop.kind === 'forEach' ? 'item' : 'round'}.`,
          )
          index = loop.block.end
          break
        }
        case 'stop': {
          const row = rowFrame()
          if (row && !outcomes.has(row.n))
            outcomes.set(row.n, {
              row: row.n + 1,
              status: step.outcome === 'succeeded' ? 'done' : 'failed',
              ...(step.outcome === 'failed' ? { error: step.message ?? 'stopped as failed' } : {}),
            })
          const message =
            step.message ?? (step.outcome === 'succeeded' ? 'The run was stopped as succeeded.' : 'The run was stopped as failed.')
          return { stopped: { outcome: step.outcome, message, step: index + 1 }, rows: rowOutcomes() }
        }
        default:
          await runner.perform(step, index, scope())
          index += 1
      }
    } catch (error) {
      const row = rowFrame()
      if (!row) throw error
      const reason = await runner.rowFailure(error, index, scope())
      outcomes.set(row.n, { row: row.n + 1, status: 'failed', error: reason ?? (error instanceof Error ? error.message : String(error)) })
      if (reason === null) throw withRows(error, rowOutcomes())
      runner.log('warn', `Row ${row.n + 1} failed: ${reason}`)
      if ((steps[row.block.opener] as Extract<AutomationStep, { type: 'forEachRow' }>).onRowError === 'stop')
        throw withRows(error, rowOutcomes())
      unwindTo(row)
      index = row.block.end
    }
  }
  return { rows: rowOutcomes() }

  function rowOutcomes(): RowOutcome[] {
    if (!steps.some((step) => step.type === 'forEachRow')) return []
    return rows.map((_, n) => outcomes.get(n) ?? { row: n + 1, status: 'not run' })
  }
}

/** The rows' outcomes so far, carried by the error that ended the run. */
export interface WithRows {
  rowOutcomes?: RowOutcome[]
}

function withRows(error: unknown, rows: RowOutcome[]): unknown {
  if (error instanceof Error && rows.length) (error as Error & WithRows).rowOutcomes = rows
  return error
}
