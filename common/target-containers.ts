/**
 * Where an element sits, for naming it when it has no words of its own or its words repeat (steps
 * version 3, docs/decisions/042): 'the checkbox in the row “Pay the invoice”', 'Delete in the
 * card “Oak table”', 'the 2nd link'. Kept without zod, for code that must stay small (the
 * extension's recorder). The schema is in targets.ts.
 */
export const CONTAINER_KINDS = ['row', 'item', 'card', 'dialog', 'form', 'section', 'near'] as const
export type ContainerKind = (typeof CONTAINER_KINDS)[number]

/** The kinds that may leave out their text: 'the OK button in the dialog'. */
export const CONTAINER_KINDS_WITHOUT_TEXT: readonly ContainerKind[] = ['dialog', 'form']

/**
 * The container an element is looked for in, by the words it shows:
 * - row: a table or grid row; item: a list item or an option;
 * - card: the smallest repeated block (an element with a sibling of the same tag: article, li, div…)
 *   that holds both the text and the element;
 * - dialog, form: a dialog or form, by its text or its name (the text may be left out when there is one);
 * - section: the smallest element that holds a heading named `text` and the element;
 * - near: the smallest element that holds both the text and the element ('the checkbox next to …').
 * `text` matches as getByText's words do (part of it, any case) unless `exact`. Of the containers
 * that hold the text and the element, only the innermost count: a list item inside a list item does
 * not make its parent count too.
 */
export interface TargetContainer {
  kind: ContainerKind
  text?: string
  exact?: boolean
}

/** The longest text a container is named by. */
export const MAX_CONTAINER_TEXT = 200
/** The highest position `nth` may name. */
export const MAX_NTH = 1000

const quoted = (text: string) => `“${text.length > 80 ? `${text.slice(0, 79)}…` : text}”`

const CONTAINER_WORDS: Record<ContainerKind, string> = {
  row: 'in the row',
  item: 'in the list item',
  card: 'in the card',
  dialog: 'in the dialog',
  form: 'in the form',
  section: 'in the section under',
  near: 'next to',
}

/** 'in the row “Invoice 42”', 'next to “Pay the invoice”', 'in the dialog'. */
export function containerInWords(container: TargetContainer): string {
  const words = CONTAINER_WORDS[container.kind]
  if (container.text === undefined) return words
  return container.kind === 'section' ? `${words} the heading ${quoted(container.text)}` : `${words} ${quoted(container.text)}`
}

/** 1st, 2nd, 3rd, 4th, 11th, 22nd. */
export function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return `${n}${suffix}`
}
