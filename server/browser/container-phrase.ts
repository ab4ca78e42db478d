import type { ContainerKind, TargetContainer } from '#common/target-containers.ts'

// How a sentence says where an element sits and which of several it is (docs/decisions/042):
// 'Delete in the row for invoice 42', 'the checkbox next to Pay the invoice', 'Add to cart in the
// card “Oak table”', 'OK in the dialog', 'the 2nd Edit link'. element-match.ts reads the rest.

export interface PlacedPhrase {
  /** The words for the element itself ('Delete', 'the checkbox', 'Edit link'). */
  inner: string
  within?: TargetContainer
  /** Which of the matches, from 1. */
  nth?: number
}

const CONTAINER_WORDS: [RegExp, ContainerKind][] = [
  [/^(?:table\s+)?(?:row|line)$/, 'row'],
  [/^(?:list\s+item|item|entry|option)$/, 'item'],
  [/^(?:card|tile|box|panel|block)$/, 'card'],
  [/^(?:dialog|dialog\s+box|modal|pop-?up|popup\s+window)$/, 'dialog'],
  [/^form$/, 'form'],
  [/^section$/, 'section'],
]
const KINDS = CONTAINER_WORDS.map(([pattern]) => pattern.source.slice(1, -1)).join('|')
const IN_CONTAINER = new RegExp(
  String.raw`^(.+?)\s+(?:in|inside|within|on|from|of)\s+(?:the\s+|a\s+)?(${KINDS})(?:\s+(?:for|of|with|about|named|called|titled|labell?ed|saying|that\s+says|showing|containing|under))?(?:\s+(.*))?$`,
  'i',
)
/** 'Delete in the Invoice 42 row', 'Name in the Billing form'. */
const IN_NAMED_CONTAINER = new RegExp(String.raw`^(.+?)\s+(?:in|inside|within|on)\s+the\s+(.+?)\s+(${KINDS})$`, 'i')
const NEXT_TO = /^(.+?)\s+(?:next\s+to|beside|alongside|near)\s+(.+)$/i
const UNDER = /^(.+?)\s+(?:under|below)\s+(?:the\s+)?(?:heading|title|section)\s+(.+)$/i
const ORDINAL_WORDS = ['second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth']
const ORDINAL = new RegExp(String.raw`^(?:the\s+)?(?:(\d{1,3})(?:st|nd|rd|th)|(${ORDINAL_WORDS.join('|')}))\s+(.+)$`, 'i')

/** Container words without their quotes and leading article: '“Oak table”' -> 'Oak table', 'the invoice 42' -> 'invoice 42'. */
function containerText(text: string): string {
  const bare = text
    .trim()
    .replace(/[.,;:!?]+$/, '')
    .replace(/^(?:the|a|an)\s+/i, '')
  return (/^["“'‘](.+)["”'’]$/.exec(bare)?.[1] ?? bare).trim()
}

const kindOf = (words: string | undefined) =>
  CONTAINER_WORDS.find(([pattern]) => pattern.test((words ?? '').toLowerCase().replace(/\s+/g, ' ')))?.[1]

/** Each way a phrase names a container: the element's words and the container, or null. */
const READERS: ((phrase: string) => { inner: string; within: TargetContainer } | null)[] = [
  (phrase) => {
    const match = IN_CONTAINER.exec(phrase)
    const kind = kindOf(match?.[2])
    const text = containerText(match?.[3] ?? '')
    if (!match || !kind || (!text && kind !== 'dialog' && kind !== 'form')) return null
    return { inner: match[1] ?? '', within: text ? { kind, text } : { kind } }
  },
  (phrase) => {
    const match = IN_NAMED_CONTAINER.exec(phrase)
    const kind = kindOf(match?.[3])
    const text = containerText(match?.[2] ?? '')
    return match && kind && text ? { inner: match[1] ?? '', within: { kind, text } } : null
  },
  (phrase) => {
    const match = UNDER.exec(phrase)
    const text = containerText(match?.[2] ?? '')
    return match && text ? { inner: match[1] ?? '', within: { kind: 'section', text } } : null
  },
  (phrase) => {
    const match = NEXT_TO.exec(phrase)
    const text = containerText(match?.[2] ?? '')
    return match && text ? { inner: match[1] ?? '', within: { kind: 'near', text } } : null
  },
]

/** The container and position a phrase names, with the words left for the element; null when it names neither. */
export function readPlacedPhrase(phrase: string): PlacedPhrase | null {
  const trimmed = phrase.trim().replace(/[.,;:!?]+$/, '')
  const placed = READERS.reduce<{ inner: string; within: TargetContainer } | null>((found, read) => found ?? read(trimmed), null)
  let inner = placed?.inner ?? trimmed
  let nth: number | undefined
  const match = ORDINAL.exec(inner.trim())
  if (match) {
    nth = match[1] ? Number(match[1]) : ORDINAL_WORDS.indexOf((match[2] ?? '').toLowerCase()) + 2
    inner = match[3] ?? ''
  }
  if (!placed && nth === undefined) return null
  if (!inner.trim() || (nth !== undefined && nth < 1)) return null
  return { inner: inner.trim(), ...(placed ? { within: placed.within } : {}), ...(nth !== undefined ? { nth } : {}) }
}
