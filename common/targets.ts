import { TARGET_ROLES, type TargetRole } from './target-roles.ts'
import { z } from './zod.ts'

/**
 * How a step names the element it acts on: the way a person sees it (docs/decisions/019). A target
 * is an ordered list of alternatives; the executor uses the first that matches exactly one
 * element. Playwright's locators are the reference semantics: getByRole (role and accessible
 * name), getByLabel, getByPlaceholder, getByText, getByTestId. `column` names the cells of a
 * table's column by its header, for extraction ('the Price column'). CSS and XPath are fallbacks
 * kept for the machine.
 */
export const TARGET_KINDS = ['role', 'label', 'placeholder', 'text', 'testId', 'column', 'css', 'xpath'] as const
export type TargetKind = (typeof TARGET_KINDS)[number]

// The roles live in a module without zod, for code that must stay small (the extension's recorder).
export { TARGET_ROLES, type TargetRole }

/** Most alternatives one target keeps. */
export const MAX_TARGET_ALTERNATIVES = 8

// Messages name no field: parseSteps puts the field's path before them ('target.0.name is required').
const words = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'is required')
    .max(500, 'must be at most 500 characters')
const exact = z.boolean({ error: 'must be true or false' }).optional()

export const targetAlternativeSchema = z.discriminatedUnion(
  'by',
  [
    z.object({
      by: z.literal('role'),
      role: z.enum(TARGET_ROLES, { error: `must be one of ${TARGET_ROLES.join(', ')}` }),
      name: words().optional(),
      exact,
    }),
    z.object({ by: z.literal('label'), text: words(), exact }),
    z.object({ by: z.literal('placeholder'), text: words(), exact }),
    z.object({ by: z.literal('text'), text: words(), exact }),
    z.object({ by: z.literal('testId'), id: words() }),
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

/** One alternative in words: 'Button named “Sign in”', 'Field labelled “Email”'. */
export function describeAlternative(alternative: TargetAlternative): string {
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
      return `CSS ${alternative.selector}`
    case 'xpath':
      return `XPath ${alternative.path}`
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
