import type { PageSnapshot, SnapshotElement } from '#server/browser/page-snapshot.ts'

/** Elements a prompt lists at most: the interactive ones first, then text to read. */
const MAX_PROMPT_ELEMENTS = 120
const MAX_TEXT = 80

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text)
const said = (text: string | null | undefined) => (text ? JSON.stringify(clip(text)) : null)

/** One element as the model reads it: '[7] textbox "Email" label="Email" placeholder="you@…"'. Never a field's value. */
function line(element: SnapshotElement): string {
  const parts = [`[${element.ref}]`, element.role ?? element.tag, said(element.name) ?? '']
  if (element.label && element.label !== element.name) parts.push(`label=${said(element.label)}`)
  if (element.placeholder && element.placeholder !== element.name) parts.push(`placeholder=${said(element.placeholder)}`)
  if (element.text && element.text !== element.name && !element.interactive) parts.push(`text=${said(element.text)}`)
  if (element.type && element.tag === 'input' && !['text', 'email', 'search'].includes(element.type)) parts.push(`type=${element.type}`)
  if (element.options?.length) parts.push(`options=${JSON.stringify(element.options.slice(0, 12).map(clip))}`)
  return parts.filter(Boolean).join(' ')
}

/** A page's address without its query and fragment, where tokens and typed values travel. */
export function addressWithoutQuery(url: string): string {
  if (!URL.canParse(url)) return 'an unknown address'
  const parsed = new URL(url)
  return `${parsed.origin}${parsed.pathname}`
}

/**
 * A page snapshot trimmed to what a model needs to choose an element (docs/decisions/020): the
 * page's title and address, and its elements by number with their role and the words a person
 * sees. Field values and the address's query are left out (a typed secret or a token is never sent).
 */
export function snapshotForModel(snapshot: PageSnapshot): string {
  const interactive = snapshot.elements.filter((element) => element.interactive)
  const readable = snapshot.elements.filter((element) => !element.interactive && (element.text || element.name))
  const shown = [...interactive, ...readable].slice(0, MAX_PROMPT_ELEMENTS).sort((a, b) => a.ref - b.ref)
  const left = snapshot.elements.length - shown.length
  return [
    `Page: ${JSON.stringify(clip(snapshot.title))} at ${addressWithoutQuery(snapshot.url)}`,
    'Elements ([number] role "name" and what else a person sees):',
    ...shown.map(line),
    left > 0 || snapshot.truncated ? `(${left > 0 ? left : 'more'} further elements not listed)` : '',
  ]
    .filter(Boolean)
    .join('\n')
}
