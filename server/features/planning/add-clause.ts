// 'Add a todo "Buy milk"', 'add "Buy milk" to the list', 'create a new task called Pay rent': a
// new entry in a list is typed into the field that makes one and sent. The clause says the text
// and, often, the kind of thing (todo, task, item, comment): the field is looked for by it.

import { isQuoted } from './quoted-parts.ts'

export interface AddInstruction {
  kind: 'add'
  text: string
  /** The kind of thing or the list it goes to ('todo', 'shopping list'), when the clause says it. */
  into: string | null
  /** Its text beside its title: 'a new note titled Tent pegs with the text "Buy pegs"'. */
  body?: string
}

/** 'Tent pegs with the text "Buy 12 pegs"' -> the title and the body. */
const BODY = /\s+(?:with|and)\s+(?:the\s+)?(?:text|body|content|contents|description|note|message)\s+(?:of\s+)?(.+)$/i

function withBody(instruction: AddInstruction, q: (text: string) => string, said: string): AddInstruction {
  const body = BODY.exec(said)
  if (!body) return instruction
  return { ...instruction, text: q(said.slice(0, body.index)), body: q(body[1] ?? '') }
}

const ARTICLE = String.raw`(?:(?:a|an|the|one|another)\s+)?(?:new\s+)?`

export function readAddClause(clause: string, q: (text: string) => string): AddInstruction | null {
  const body = /^(?:add|create|insert)\s+(.+)$/i.exec(clause)?.[1]?.trim()
  if (!body) return null
  let match: RegExpExecArray | null
  // 'three todos: Buy bread', 'these items: Milk'
  if (
    (match =
      /^(?:(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|some|these|the\s+following)\s+)?([\p{L}][\p{L}\s-]{0,40}?)\s*:\s*(.+)$/iu.exec(
        body,
      ))
  ) {
    return { kind: 'add', text: q(match[2] ?? ''), into: q(match[1] ?? '') }
  }
  // 'a new task called Pay rent', 'an item named "Milk"'
  if (
    (match = new RegExp(String.raw`^${ARTICLE}(.+?)\s+(?:called|named|titled|saying|with\s+the\s+(?:text|title|name))\s+(.+)$`, 'i').exec(
      body,
    ))
  ) {
    return withBody({ kind: 'add', text: q(match[2] ?? ''), into: q(match[1] ?? '') }, q, match[2] ?? '')
  }
  // 'a todo "Buy milk"', 'new item “Oak table”'
  if ((match = new RegExp(String.raw`^${ARTICLE}([\p{L}][\p{L}\s-]{0,40}?)\s+(\uE000\d+\uE000)$`, 'iu').exec(body))) {
    return { kind: 'add', text: q(match[2] ?? ''), into: q(match[1] ?? '') }
  }
  // '"Buy milk" to the list', 'Buy milk to my todos', '"Milk" as a new item'
  if ((match = /^(.+?)\s+(?:to|into|onto|on|in|as)\s+(?:the\s+|my\s+|your\s+|a\s+|an\s+)?(?:new\s+)?(.+)$/i.exec(body))) {
    // 'add the Oak table to the cart' presses a button; it types nothing.
    if (/^(?:shopping\s+)?(?:cart|basket|bag|wish\s*list|favou?rites)$/i.test(match[2] ?? '')) return null
    return { kind: 'add', text: q(match[1] ?? ''), into: q(match[2] ?? '') }
  }
  // '"Buy milk"', 'Buy milk' (but not 'the item', which names nothing to type)
  if (isQuoted(body) || !/^(?:a|an|the|new|one|another)\b/i.test(body)) return { kind: 'add', text: q(body), into: null }
  return null
}
