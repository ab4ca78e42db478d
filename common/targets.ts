import { cssInWords, xpathInWords } from './structural-words.ts'
import {
  CONTAINER_KINDS,
  CONTAINER_KINDS_WITHOUT_TEXT,
  containerInWords,
  MAX_CONTAINER_TEXT,
  MAX_NTH,
  ordinal,
  type ContainerKind,
  type TargetContainer,
} from './target-containers.ts'
import { TARGET_ROLES, type TargetRole } from './target-roles.ts'
import { z } from './zod.ts'

/**
 * How a step names the element it acts on: the way a person sees it (docs/decisions/019). A target
 * is an ordered list of alternatives; the executor uses the first that matches exactly one
 * element. Playwright's locators are the reference semantics: getByRole (role and accessible
 * name), getByLabel, getByPlaceholder, getByText, getByTestId. `column` names the cells of a
 * table's column by its header, for extraction ('the Price column'). CSS and XPath are fallbacks
 * kept for the machine. Since version 3 (docs/decisions/042) a way by words may say where the
 * element sits (`within`: the row, list item, card, dialog, form, section it is in, or the text it
 * is next to) and which of its matches it is (`nth`, from 1), for controls with no words of their
 * own and words that repeat ('the checkbox in the row “Pay the invoice”').
 */
export const TARGET_KINDS = ['role', 'label', 'placeholder', 'text', 'testId', 'column', 'css', 'xpath'] as const
export type TargetKind = (typeof TARGET_KINDS)[number]

// The roles and containers live in modules without zod, for code that must stay small (the extension's recorder).
export { CONTAINER_KINDS, TARGET_ROLES, type ContainerKind, type TargetContainer, type TargetRole }

/** Most alternatives one target keeps. */
export const MAX_TARGET_ALTERNATIVES = 8

// Messages name no field: parseSteps puts the field's path before them ('target.0.name is required').
const words = (max = 500) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
const exact = z.boolean({ error: 'must be true or false' }).optional()

const KINDS_WITH_TEXT = CONTAINER_KINDS.filter((kind) => !CONTAINER_KINDS_WITHOUT_TEXT.includes(kind)) as [
  ContainerKind,
  ...ContainerKind[],
]
/** Where the element sits (target-containers.ts): `{ kind: 'row', text: 'Invoice 42' }`. */
export const targetContainerSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.enum(KINDS_WITH_TEXT), text: words(MAX_CONTAINER_TEXT), exact }),
    z.object({
      kind: z.enum(CONTAINER_KINDS_WITHOUT_TEXT as [ContainerKind, ...ContainerKind[]]),
      text: words(MAX_CONTAINER_TEXT).optional(),
      exact,
    }),
  ],
  { error: `must say what the element is in: kind ${CONTAINER_KINDS.join(', ')}, and the text it shows` },
)
/** Which of the matches, from 1 ('the 2nd link'). */
const nth = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'counts from 1')
  .max(MAX_NTH, `must be at most ${MAX_NTH}`)
  .optional()
/** What a way by words may add (version 3): where the element sits, and which of the matches it is. */
const placed = { within: targetContainerSchema.optional(), nth }

export const targetAlternativeSchema = z.discriminatedUnion(
  'by',
  [
    z.object({
      by: z.literal('role'),
      role: z.enum(TARGET_ROLES, { error: `must be one of ${TARGET_ROLES.join(', ')}` }),
      name: words().optional(),
      exact,
      ...placed,
    }),
    z.object({ by: z.literal('label'), text: words(), exact, ...placed }),
    z.object({ by: z.literal('placeholder'), text: words(), exact, ...placed }),
    z.object({ by: z.literal('text'), text: words(), exact, ...placed }),
    z.object({ by: z.literal('testId'), id: words(), ...placed }),
    z.object({ by: z.literal('column'), header: words(), exact }),
    z.object({ by: z.literal('css'), selector: words() }),
    z.object({ by: z.literal('xpath'), path: words() }),
  ],
  { error: `must say how to find the element: by ${TARGET_KINDS.join(', ')}` },
)
export type TargetAlternative = z.infer<typeof targetAlternativeSchema>

export const targetSchema = z
  .array(targetAlternativeSchema, {
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a list of ways to find the element'),
  })
  .min(1, 'needs at least one way to find the element')
  .max(MAX_TARGET_ALTERNATIVES, `keeps at most ${MAX_TARGET_ALTERNATIVES} ways to find the element`)
export type Target = z.infer<typeof targetSchema>

const ROLE_WORDS: Partial<Record<TargetRole, string>> = {
  textbox: 'Text field',
  searchbox: 'Search field',
  combobox: 'Drop-down',
  listbox: 'List box',
  spinbutton: 'Number field',
  menuitem: 'Menu item',
  menuitemcheckbox: 'Menu checkbox',
  menuitemradio: 'Menu option',
  treeitem: 'Tree item',
  img: 'Image',
  columnheader: 'Column header',
  rowheader: 'Row header',
  listitem: 'List item',
}

const quoted = (text: string) => `“${text.length > 80 ? `${text.slice(0, 79)}…` : text}”`

/** A way by words that says where its element sits or which match it is (version 3). */
export type PlacedAlternative = Extract<TargetAlternative, { within?: unknown }>

/** Whether the alternative says where its element sits or which match it is. */
export const isPlaced = (alternative: TargetAlternative): alternative is PlacedAlternative =>
  'within' in alternative || 'nth' in alternative

/**
 * One alternative in words: 'Button named “Sign in”', 'Field labelled “Email”', 'Checkbox in the
 * row “Pay the invoice”', '2nd Link in the list item “Tools”'. CSS and XPath are never shown as
 * written: 'Link (found by the page’s structure)'.
 */
export function describeAlternative(alternative: TargetAlternative): string {
  const own = ownWords(alternative)
  if (!isPlaced(alternative)) return own
  const position = alternative.nth === undefined ? '' : `${ordinal(alternative.nth)} `
  return `${position}${own}${alternative.within ? ` ${containerInWords(alternative.within)}` : ''}`
}

function ownWords(alternative: TargetAlternative): string {
  switch (alternative.by) {
    case 'role': {
      const role = ROLE_WORDS[alternative.role] ?? `${alternative.role.charAt(0).toUpperCase()}${alternative.role.slice(1)}`
      return alternative.name ? `${role} named ${quoted(alternative.name)}` : role
    }
    case 'label':
      return `Field labelled ${quoted(alternative.text)}`
    case 'placeholder':
      return `Field showing ${quoted(alternative.text)}`
    case 'text':
      return `Text ${quoted(alternative.text)}`
    case 'testId':
      return `Test id ${quoted(alternative.id)}`
    case 'column':
      return `Column ${quoted(alternative.header)}`
    case 'css':
      return cssInWords(alternative.selector)
    case 'xpath':
      return xpathInWords(alternative.path)
  }
}

/** A target in words: its first alternative, and how many fallbacks it keeps. */
export function describeTarget(target: Target): string {
  const [first, ...rest] = target
  if (!first) return 'No element'
  return rest.length
    ? `${describeAlternative(first)} (+${rest.length} fallback${rest.length === 1 ? '' : 's'})`
    : describeAlternative(first)
}
