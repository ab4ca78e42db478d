import { ordinal } from './target-containers.ts'

// CSS and XPath are the machine's fallbacks (docs/decisions/019); members never read them
// (docs/decisions/042). What a person can be told of one: the kind of element its last part names,
// its position among its like, and the words of its id ('#order-total' -> “order total”).

const TAG_WORDS: Record<string, string> = {
  a: 'Link',
  button: 'Button',
  input: 'Field',
  textarea: 'Text field',
  select: 'Drop-down',
  img: 'Image',
  li: 'List item',
  ul: 'List',
  ol: 'List',
  tr: 'Row',
  td: 'Table cell',
  th: 'Table header',
  table: 'Table',
  form: 'Form',
  label: 'Label',
  p: 'Paragraph',
  h1: 'Heading',
  h2: 'Heading',
  h3: 'Heading',
  h4: 'Heading',
  h5: 'Heading',
  h6: 'Heading',
  nav: 'Navigation',
  dialog: 'Dialog',
  article: 'Article',
  section: 'Section',
  strong: 'Bold text',
  b: 'Bold text',
  em: 'Emphasised text',
  span: 'Text',
  time: 'Time',
  option: 'Option',
  summary: 'Summary',
  iframe: 'Frame',
}

const idWords = (id: string) =>
  id
    .replace(/\\/g, '')
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase()

/** The last simple part of a CSS selector: 'ul > li:nth-of-type(3) > a' -> 'a'; frames and `>>` chains cut off. */
function lastCssPart(selector: string): string {
  const chain = selector.split('>>').at(-1) ?? selector
  const parts = chain
    .replace(/\[[^\]]*\]/g, (attribute) => attribute.replace(/[\s>+~]/g, '_'))
    .trim()
    .split(/\s*[>+~]\s*|\s+/)
  return parts.at(-1) ?? ''
}

function inWords(tag: string, position: number | null, id: string | null): string {
  const kind = TAG_WORDS[tag.toLowerCase()] ?? 'Element'
  const called = id ? ` “${idWords(id)}”` : ''
  return `${position && position > 1 ? `${ordinal(position)} ` : ''}${kind}${called} (found by the page’s structure)`
}

const capital = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`

/** The recorder's way into a frame ('#pay >> internal:control=enter-frame >> internal:role=button[name="Pay"i]') in words. */
function inFrameWords(selector: string): string | null {
  if (!selector.includes('internal:control=enter-frame')) return null
  const last = (selector.split('>>').at(-1) ?? '').trim()
  const value = (text: string | undefined) => `“${(text ?? '').replace(/\\(.)/g, '$1')}”`
  let match = /^internal:role=([a-z]+)(?:\[name="((?:[^"\\]|\\.)*)"[is]\])?$/.exec(last)
  if (match) return `${capital(match[1] ?? '')}${match[2] === undefined ? '' : ` named ${value(match[2])}`} in a frame`
  match = /^internal:(label|text)="((?:[^"\\]|\\.)*)"[is]$/.exec(last)
  if (match) return `${match[1] === 'label' ? 'Field labelled' : 'Text'} ${value(match[2])} in a frame`
  match = /^internal:attr=\[placeholder="((?:[^"\\]|\\.)*)"[is]\]$/.exec(last)
  if (match) return `Field showing ${value(match[1])} in a frame`
  match = /^internal:testid=\[data-testid="((?:[^"\\]|\\.)*)"[is]\]$/.exec(last)
  if (match) return `Test id ${value(match[1])} in a frame`
  return null
}

/** A CSS fallback in words: '#email' -> 'Element “email” (found by the page’s structure)'. */
export function cssInWords(selector: string): string {
  const framed = inFrameWords(selector)
  if (framed) return framed
  const part = lastCssPart(selector)
  const tag = /^[a-zA-Z][\w-]*/.exec(part)?.[0] ?? ''
  const id = /#((?:\\.|[\w-])+)/.exec(part)?.[1] ?? null
  const position = /:nth-(?:of-type|child)\((\d+)\)/.exec(part)?.[1]
  return inWords(tag, position ? Number(position) : null, id)
}

/** An XPath fallback in words: '//ul/li[3]/a' -> 'Link (found by the page’s structure)'. */
export function xpathInWords(path: string): string {
  const step = path.split('/').at(-1) ?? ''
  const tag = /^[a-zA-Z][\w-]*/.exec(step)?.[0] ?? ''
  const position = /^\w+\[(\d+)\]/.exec(step)?.[1]
  const id = /@id\s*=\s*["']([^"']+)["']/.exec(step)?.[1] ?? null
  return inWords(tag, position ? Number(position) : null, id)
}
