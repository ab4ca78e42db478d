import { BLOCK_OPENERS, LOOPS } from './workflow-steps.ts'

/** How deep blocks may nest (an if inside a loop inside a loop…). */
export const MAX_BLOCK_DEPTH = 6

/** Where a block's parts are: the index of its opener, its `else` (an if's) and its `end`. */
export interface Block {
  opener: number
  else?: number
  end: number
}

export interface BlockIssue {
  index: number
  message: string
}

const isOpener = (type: string) => (BLOCK_OPENERS as readonly string[]).includes(type)

/**
 * The blocks of a flat list of steps (docs/decisions/046): each `if`, `repeat`, `forEach` and
 * `forEachRow` is closed by the next `end` not taken by a block inside it; an `else` belongs to
 * the innermost open `if`. Every step that is not where it may be is an issue: an `end` or `else`
 * with no block, an `if` with two `else`s, a block left open, a `forEachRow` inside another
 * (a run has one table of rows), blocks deeper than MAX_BLOCK_DEPTH, a `next` outside any loop.
 * `blocks` maps the index of every opener, `else` and `end` to its block.
 */
export function blockStructure(steps: readonly { type: string }[]): { blocks: Map<number, Block>; issues: BlockIssue[] } {
  const blocks = new Map<number, Block>()
  const issues: BlockIssue[] = []
  const open: { type: string; block: Block }[] = []
  steps.forEach((step, index) => {
    const innermost = open.at(-1)
    if (isOpener(step.type)) {
      if (open.length >= MAX_BLOCK_DEPTH) issues.push({ index, message: `blocks may be nested at most ${MAX_BLOCK_DEPTH} deep` })
      if (step.type === 'forEachRow' && open.some((outer) => outer.type === 'forEachRow'))
        issues.push({ index, message: 'a "for each row" block cannot be inside another: a run has one table of rows' })
      const block: Block = { opener: index, end: -1 }
      open.push({ type: step.type, block })
      blocks.set(index, block)
    } else if (step.type === 'else') {
      if (innermost?.type !== 'if') issues.push({ index, message: 'an else belongs inside an if block, before its end' })
      else if (innermost.block.else !== undefined) issues.push({ index, message: 'an if block has at most one else' })
      else {
        innermost.block.else = index
        blocks.set(index, innermost.block)
      }
    } else if (step.type === 'end') {
      if (!innermost) issues.push({ index, message: 'this end closes no block (if, repeat, for each)' })
      else {
        innermost.block.end = index
        blocks.set(index, innermost.block)
        open.pop()
      }
    } else if (step.type === 'next' && !open.some((outer) => LOOPS.has(outer.type))) {
      issues.push({ index, message: 'a "next" step skips to the next round of a loop, so it belongs inside one' })
    }
  })
  for (const left of open) issues.push({ index: left.block.opener, message: 'this block is never closed: add an end step after its steps' })
  return { blocks, issues }
}

/** Each step's depth in the blocks (an opener, its else and its end at the depth of the steps around it). */
export function blockDepths(steps: readonly { type: string }[]): number[] {
  let depth = 0
  return steps.map((step) => {
    if (step.type === 'end' || step.type === 'else') {
      depth = Math.max(0, depth - 1)
      const here = depth
      if (step.type === 'else') depth += 1
      return here
    }
    const here = depth
    if (isOpener(step.type)) depth += 1
    return here
  })
}

/** The step a run can start at to run `index`: the opener of the outermost block around it, or itself. */
export function topLevelStart(steps: readonly { type: string }[], index: number): number {
  let depth = 0
  let outermost = index
  for (let i = 0; i < index; i++) {
    const type = steps[i]?.type ?? ''
    if (isOpener(type)) {
      if (depth === 0) outermost = i
      depth += 1
    } else if (type === 'end') depth = Math.max(0, depth - 1)
  }
  return depth === 0 ? index : outermost
}

/** Whether any step is inside a `forEachRow` block, by index. */
export function insideRows(steps: readonly { type: string }[]): boolean[] {
  const open: string[] = []
  return steps.map((step) => {
    const inside = open.includes('forEachRow')
    if (isOpener(step.type)) open.push(step.type)
    else if (step.type === 'end') open.pop()
    return inside
  })
}
