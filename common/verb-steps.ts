import { onError, text, whole, yesNo } from './step-fields.ts'
import { targetSchema } from './targets.ts'
import { z } from './zod.ts'

// The step types people name by their verbs beyond click and type (issue 28): each sets a state or
// checks one, the same in the cloud, on the member's machine and in the extension.

/** Puts a checkbox, radio or switch in the state asked for: clicks only when it is not so already. */
export const checkStep = z.object({ type: z.literal('check'), ...onError, target: targetSchema, checked: yesNo().default(true) })
/** Moves the pointer over an element (menus that open on hover, tooltips). */
export const hoverStep = z.object({ type: z.literal('hover'), ...onError, target: targetSchema })
/** Double-clicks an element (editing a cell or a title in place). */
export const doubleClickStep = z.object({ type: z.literal('doubleClick'), ...onError, target: targetSchema })
/** Empties a field. */
export const clearStep = z.object({ type: z.literal('clear'), ...onError, target: targetSchema })
/** Goes back one page in the tab's history, as the browser's Back button. */
export const goBackStep = z.object({ type: z.literal('goBack'), ...onError })

/** The most screens a scroll step scrolls looking for its element. */
export const MAX_SCROLLS = 50
/**
 * Scrolls until the element appears and brings it into view (lists that load more as one
 * scrolls), at most `maxScrolls` screens; without a target, scrolls one screen down.
 */
export const scrollStep = z.object({
  type: z.literal('scroll'),
  ...onError,
  target: targetSchema.optional(),
  maxScrolls: whole(MAX_SCROLLS).min(1, 'must be at least 1').optional(),
})

export const DIALOG_ACTIONS = ['accept', 'dismiss'] as const
/**
 * Answers the next browser dialog (alert, confirm, prompt) the page opens: accept (OK, with
 * `text` typed into a prompt) or dismiss (Cancel). It comes before the step that opens the
 * dialog; a dialog nothing answers is dismissed.
 */
export const dialogStep = z.object({
  type: z.literal('dialog'),
  ...onError,
  action: z.enum(DIALOG_ACTIONS, { error: `must be one of ${DIALOG_ACTIONS.join(', ')}` }),
  text: text().max(1000, 'must be at most 1000 characters').optional(),
})
/** Goes on in the newest tab or popup the page opened (waiting for it, within the step's time). */
export const switchTabStep = z.object({ type: z.literal('switchTab'), ...onError })

/** Fails unless the checkbox, radio or switch is in the state given. */
export const assertCheckedStep = z.object({
  type: z.literal('assertChecked'),
  ...onError,
  target: targetSchema,
  checked: yesNo().default(true),
})
export const MAX_ASSERT_COUNT = 10_000
/** Fails unless the target matches exactly `count` visible elements (the first way that matches any). */
export const assertCountStep = z.object({
  type: z.literal('assertCount'),
  ...onError,
  target: targetSchema,
  count: whole(MAX_ASSERT_COUNT),
})
