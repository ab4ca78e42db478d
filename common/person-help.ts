import { text } from './step-fields.ts'
import { z } from './zod.ts'

/**
 * Human takeover (docs/decisions/059): an "ask a person" step pauses a cloud run until a member
 * who may edit the workspace's automations acts in its live view and presses Continue, or the
 * plan's wait runs out.
 */
export const askPersonStep = z.object({
  type: z.literal('askPerson'),
  /** What the person should do, as the run page, the e-mail and the webhook say it. */
  message: text().min(1, 'is required').max(500, 'must be at most 500 characters'),
})

/** A run waiting for a person: what for, since when, and when it fails if nobody comes. */
export interface RunWaiting {
  message: string
  since: string
  until: string
  /** The step that asks. */
  step: number
}

/** The keys a person may press in the live view. */
export const PERSON_KEYS = [
  'Enter',
  'Tab',
  'Escape',
  'Space',
  'Backspace',
  'Delete',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
] as const

/** The most characters a person types into the page at once. */
export const MAX_PERSON_TEXT = 200

/** What a person does in the live view of a waiting run: click at a point of the page (CSS pixels), type text, press a key. */
export const personInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('click'), x: z.number().min(0).max(10_000), y: z.number().min(0).max(10_000) }),
  z.object({
    kind: z.literal('type'),
    text: z.string().min(1, 'is required').max(MAX_PERSON_TEXT, `must be at most ${MAX_PERSON_TEXT} characters`),
  }),
  z.object({ kind: z.literal('press'), key: z.enum(PERSON_KEYS) }),
])
export type PersonInput = z.infer<typeof personInputSchema>

/** What the run's log says a person did: never what they typed (a one-time code is a secret). */
export function personInputInWords(input: PersonInput, who: string): string {
  if (input.kind === 'click') return `${who} clicked at ${Math.round(input.x)}, ${Math.round(input.y)} in the live view.`
  if (input.kind === 'type') return `${who} typed ${input.text.length} character${input.text.length === 1 ? '' : 's'} in the live view.`
  return `${who} pressed ${input.key} in the live view.`
}

export const NOT_WAITING = 'This run is not waiting for a person.'
/** How an "ask a person" step fails where there is no live view to act in (the extension, the local runner). */
export const ASK_PERSON_IN_THE_CLOUD = 'asking a person needs the live view of a cloud run: run this automation in the cloud'
