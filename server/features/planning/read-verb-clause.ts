// The clauses that name the verb steps (common/verb-steps.ts): 'make sure Remember me is ticked',
// 'hover over Account', 'wait until Loading disappears', 'accept the confirmation', 'switch to the
// new tab', 'check that there are 3 results'. read-clause.ts asks here first; null: not one of these.

import { isQuoted } from './quoted-parts.ts'

export type VerbInstruction =
  | { kind: 'hover'; element: string }
  | { kind: 'doubleClick'; element: string }
  | { kind: 'clear'; element: string }
  /** 'delete the email about X', 'get rid of the completed todos': `verb` as said, for a button that says it. */
  | { kind: 'remove'; element: string; verb: string }
  | { kind: 'back' }
  | { kind: 'scroll'; element: string | null }
  | { kind: 'waitGone'; element: string; quoted: boolean }
  | { kind: 'dialog'; action: 'accept' | 'dismiss'; text: string | null }
  /**
   * 'run the List loans request', 'call List books with author set to Macfarlane': open it, fill in,
   * run it. A setting with no field ('look up book 2 with "Find a book"') goes in its one field.
   */
  | { kind: 'run'; element: string; settings: { field: string | null; value: string }[] }
  /** 'and confirm', 'confirm the change': the Confirm or OK the page shows now, else the browser's own confirmation. */
  | { kind: 'confirm' }
  | { kind: 'switchTab' }
  | { kind: 'cookies'; accept: boolean }
  | { kind: 'assertAbsent'; text: string }
  | { kind: 'assertChecked'; element: string; on: boolean }
  | { kind: 'assertCount'; element: string; count: number }
  /** Sets a box's state: read-clause.ts's own 'check' instruction. */
  | { kind: 'check'; element: string; on: boolean }

/**
 * The value that tells which one: '2' of 'book number 2', '4' of 'book 4', 'A-17' of 'order #A-17';
 * null when the words end in no number or code.
 */
export function valueIn(words: string): string | null {
  return /(?:^|\s|#)([\w-]*\d[\w.-]*)$/.exec(words.trim())?.[1] ?? null
}

const NUMBER_WORDS: Record<string, number> = {
  no: 0,
  zero: 0,
  one: 1,
  a: 1,
  an: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  twenty: 20,
}

const CHECKED = /\s+(?:is|are|gets?|stays?|remains?)\s+(not\s+|un)?(?:checked|ticked|selected|enabled|switched\s+on|turned\s+on|on)$/i
const UNCHECKED = /\s+(?:is|are|stays?|remains?)\s+(?:unchecked|unticked|deselected|disabled|switched\s+off|turned\s+off|off)$/i
const ABSENT =
  /\s+(?:(?:does|do)\s*(?:not|n't)\s+(?:appear|show(?:\s+up)?|exist)|(?:is|are)(?:\s*not|n't)\s+(?:shown|visible|displayed|there|present|on\s+the\s+page)|(?:is|are)\s+(?:gone|hidden|absent)|(?:has|have)\s+disappeared|disappears?|(?:should|must)\s*(?:not|n't)\s+(?:appear|show))$/i
const GONE =
  /\s+(?:to\s+)?(?:disappears?|vanishe?s?|goes?\s+away|go\s+away|is\s+gone|(?:is|gets?)\s+(?:hidden|closed|removed)|closes?|to\s+close|to\s+be\s+(?:gone|hidden|removed)|is\s+no\s+longer\s+(?:shown|visible))$/i

/** The words of a check or set: 'the Remember me box' stays as said (the planner reads the kind). */
export function readVerbClause(clause: string, q: (text: string) => string): VerbInstruction | null {
  let match: RegExpExecArray | null

  // Set a box's state: 'make sure Remember me is ticked', 'mark Buy milk as done', 'tick X'.
  if ((match = /^(?:make\s+sure|ensure|be\s+sure)(?:\s+that)?\s+(?:the\s+)?(.+)$/i.exec(clause))) {
    const rest = match[1] ?? ''
    const on = CHECKED.exec(rest)
    if (on) return { kind: 'check', element: q(rest.slice(0, on.index)), on: !on[1] }
    const off = UNCHECKED.exec(rest)
    if (off) return { kind: 'check', element: q(rest.slice(0, off.index)), on: false }
  }
  if (
    (match =
      /^mark\s+(?:the\s+)?(.+?)\s+as\s+(not\s+done|not\s+complete|incomplete|undone|unread|done|complete|completed|finished|read)$/i.exec(
        clause,
      ))
  ) {
    return { kind: 'check', element: q(match[1] ?? ''), on: !/^(?:not|in|un)/i.test(match[2] ?? '') }
  }

  // Ticking off: 'tick off Call the plumber', 'check it off', 'cross Milk off the list'.
  if ((match = /^(?:tick|check|cross|mark)\s+off\s+(?:the\s+)?(.+?)(?:\s+(?:on|from)\s+(?:the|my|your)\s+list)?$/i.exec(clause)))
    return { kind: 'check', element: q(match[1] ?? ''), on: true }
  if ((match = /^(?:tick|check|cross|mark)\s+(?:the\s+)?(.+?)\s+off(?:\s+(?:on|from)?\s*(?:the|my|your)\s+list)?$/i.exec(clause)))
    return { kind: 'check', element: q(match[1] ?? ''), on: true }

  // What the page can run, named in quotes, given the value it asks for: 'look up book number 2 with
  // "Find a book by its number"', 'use "Remove a book" to delete book 4'.
  const OPERATION = '(?:\\s+(?:request|operation|endpoint|call|query|method))?'
  const runsQuoted = new RegExp(
    `^(?:look\\s+up|find|fetch|get|retrieve|load|open|search\\s+for|remove|delete)\\s+(.+?)\\s+(?:with|using|via|through)\\s+(?:the\\s+)?(\uE000\\d+\uE000)${OPERATION}$`,
    'i',
  ).exec(clause)
  const usesQuoted = new RegExp(
    `^use\\s+(?:the\\s+)?(\uE000\\d+\uE000)${OPERATION}\\s+to\\s+(?:look\\s+up|find|fetch|get|retrieve|load|open|remove|delete)\\s+(.+)$`,
    'i',
  ).exec(clause)
  const [which, operation] = runsQuoted ? [runsQuoted[1], runsQuoted[2]] : usesQuoted ? [usesQuoted[2], usesQuoted[1]] : []
  const value = which ? valueIn(q(which)) : null
  if (value && operation) return { kind: 'run', element: q(operation), settings: [{ field: null, value }] }

  // Running what the page can run: 'run the List loans request', 'call List books with author set to Macfarlane'.
  if (
    (match =
      /^(?:run|call|invoke|execute)\s+(?:the\s+)?(.+?)(?:\s+(?:request|operation|endpoint|call|query|method|job))?(?:\s+with\s+(.+))?$/i.exec(
        clause,
      )) &&
    !/^(?:it|this|that|them)$/i.test(match[1] ?? '')
  ) {
    const settings = (match[2] ?? '')
      .split(/\s*,\s*|\s+and\s+/i)
      .map(
        (setting) =>
          /^(?:the\s+)?(.+?)\s+(?:set\s+to|=|:|as|equal\s+to)\s+(.+)$/i.exec(setting) ?? /^(?:the\s+)?(.+?)\s+(\S+)$/.exec(setting),
      )
      .filter((setting): setting is RegExpExecArray => setting !== null)
      .map((setting) => ({ field: q(setting[1] ?? ''), value: q(setting[2] ?? '') }))
    return { kind: 'run', element: q(match[1] ?? ''), settings }
  }

  // Removing: 'delete the email about X', 'remove "Buy milk" from the list', 'get rid of the completed todos'.
  if (
    (match =
      /^(delete|remove|get\s+rid\s+of|trash|discard|throw\s+away|destroy|erase)\s+(?!the\s+text\b)(?:the\s+)?(.+?)(?:\s+from\s+(?:the|my|your|this)\s+(?:\S+\s+)?(?:list|inbox|table|page|cart|basket|notebook))?$/i.exec(
        clause,
      ))
  )
    return { kind: 'remove', element: q(match[2] ?? ''), verb: (match[1] ?? 'delete').toLowerCase().replace(/\s+/g, ' ') }

  // Checks: 'check that X does not appear', 'verify Remember me is ticked', 'check that there are 3 results'.
  if (
    (match = /^(?:check|verify|assert|confirm|expect|see)(?:\s+(?:that|if|whether))?\s+(.+)$/i.exec(clause)) &&
    !/^check\s+(?!that|if|whether)/i.test(clause)
  ) {
    const rest = (match[1] ?? '').replace(
      /^(?:the\s+)?(?:page|screen)\s+(?:does\s*(?:not|n't)\s+(?:show|say|contain|display))\s+(?:the\s+)?(?:text\s+)?/i,
      '',
    )
    if (rest !== match[1]) return { kind: 'assertAbsent', text: q(rest.replace(/^(?:text|message|words?)\s+/i, '')) }
    const absent = ABSENT.exec(rest)
    if (absent) return { kind: 'assertAbsent', text: q(rest.slice(0, absent.index).replace(/^(?:the\s+)?(?:text|message|words?)\s+/i, '')) }
    const on = CHECKED.exec(rest)
    if (on) return { kind: 'assertChecked', element: q(rest.slice(0, on.index)), on: !on[1] }
    const off = UNCHECKED.exec(rest)
    if (off) return { kind: 'assertChecked', element: q(rest.slice(0, off.index)), on: false }
    const count =
      /^there\s+(?:are|is)\s+(?:exactly\s+)?(\d+|[a-z]+)\s+(.+?)(?:\s+(?:on\s+the\s+page|shown|listed|in\s+the\s+list))?$/i.exec(rest) ??
      /^(?:exactly\s+)?(\d+|[a-z]+)\s+(.+?)\s+(?:are|is)\s+(?:shown|listed|displayed|visible|on\s+the\s+page)$/i.exec(rest)
    const amount = count ? (/^\d+$/.test(count[1] ?? '') ? Number(count[1]) : NUMBER_WORDS[(count[1] ?? '').toLowerCase()]) : undefined
    if (count && amount !== undefined) return { kind: 'assertCount', element: q(count[2] ?? ''), count: amount }
  }

  // Pointer: 'hover over the Account menu', 'double-click the title'.
  if (
    (match = /^(?:hover(?:\s+(?:over|on))?|mouse\s+over|move\s+the\s+(?:mouse|pointer)\s+(?:over|onto|to))\s+(?:the\s+)?(.+)$/i.exec(
      clause,
    ))
  )
    return { kind: 'hover', element: q(match[1] ?? '') }
  if ((match = /^double[-\s]?click(?:\s+(?:on|onto))?\s+(.+)$/i.exec(clause))) return { kind: 'doubleClick', element: q(match[1] ?? '') }

  // Fields: 'clear the Search field', 'empty City' (a box: 'clear the Newsletter box' unticks it).
  if ((match = /^(?:clear|empty|erase|delete\s+the\s+text\s+in)\s+(?:out\s+)?(?:the\s+)?(.+)$/i.exec(clause))) {
    const what = match[1] ?? ''
    if (/\b(?:check\s*box|box|tick|toggle|switch)$/i.test(what)) return { kind: 'check', element: q(what), on: false }
    return { kind: 'clear', element: q(what) }
  }

  // History and tabs: 'go back', 'switch to the new tab', 'continue in the popup'.
  if (
    /^(?:go|navigate|head|return)\s+back(?:\s+(?:to\s+)?(?:the\s+)?(?:previous|last)\s+page)?$|^(?:return|go)\s+to\s+the\s+previous\s+page$|^(?:press|click)\s+(?:the\s+)?back(?:\s+button)?$/i.test(
      clause,
    )
  )
    return { kind: 'back' }
  if (
    /^(?:switch|change|move|go|continue|carry\s+on)\s+(?:to|in|on|into)\s+(?:the\s+)?(?:new|newly\s+opened|opened|other|next|latest|newest)?\s*(?:browser\s+)?(?:tab|window|popup|pop-up)(?:\s+(?:that|which)\s+(?:opened|opens|appeared))?$/i.test(
      clause,
    )
  )
    return { kind: 'switchTab' }

  // Scrolling: 'scroll down', 'scroll to the footer', 'scroll until Item 40 appears'.
  if (
    (match = /^scroll(?:\s+(?:down|up|the\s+page))?(?:\s+(?:to|until|till)\s+(?:you\s+see\s+|reaching\s+)?(?:the\s+)?(.+?))?$/i.exec(
      clause,
    ))
  ) {
    const what = (match[1] ?? '').replace(/\s+(?:appears?|shows?(?:\s+up)?|is\s+(?:shown|visible))$/i, '').trim()
    if (/^(?:the\s+)?(?:bottom|end|top)(?:\s+of\s+the\s+page)?$/i.test(what) || !what) return { kind: 'scroll', element: null }
    return { kind: 'scroll', element: q(what) }
  }

  // Waiting for something to go: 'wait until Loading disappears', 'wait for the spinner to go away'.
  if ((match = /^(?:wait|pause)\s+(?:for|until|till)\s+(?:the\s+)?(.+)$/i.exec(clause))) {
    const rest = match[1] ?? ''
    const gone = GONE.exec(rest)
    if (gone) {
      const what = rest.slice(0, gone.index)
      return { kind: 'waitGone', element: q(what), quoted: isQuoted(what.trim()) }
    }
  }

  // The browser's dialogs: 'accept the confirmation', 'dismiss the alert', 'answer the prompt with Q3'.
  if ((match = /^answer\s+(?:the\s+)?(?:browser'?s?\s+)?prompt\s+with\s+(.+)$/i.exec(clause)))
    return { kind: 'dialog', action: 'accept', text: q(match[1] ?? '') }
  if (
    (match =
      /^(accept|confirm|ok|approve|dismiss|cancel|decline|reject)\s+(?:the\s+)?(?:next\s+)?(?:browser'?s?\s+)?(?:confirm(?:ation)?|alert|prompt|dialog|pop-?up\s+dialog)(?:\s+(?:dialog|box|message|window))?$/i.exec(
        clause,
      ))
  )
    return { kind: 'dialog', action: /^(?:accept|confirm|ok|approve)/i.test(match[1] ?? '') ? 'accept' : 'dismiss', text: null }

  if (
    /^(?:confirm|ok|okay)(?:\s+(?:it|that|this|them|(?:the\s+)?(?:change|changes|edit|edits|deletion|removal|action|choice)))?$/i.test(
      clause,
    )
  )
    return { kind: 'confirm' }

  // Cookie banners: 'accept the cookies', 'dismiss the cookie banner', 'reject all cookies'.
  if (
    (match =
      /^(accept|allow|agree\s+to|dismiss|close|hide|reject|decline|refuse|deny)\s+(?:the\s+|all\s+)?(?:cookies?|cookie\s+(?:banner|notice|consent|popup|pop-up|dialog|message|bar|prompt))$/i.exec(
        clause,
      ))
  )
    return { kind: 'cookies', accept: !/^(?:reject|decline|refuse|deny)/i.test(match[1] ?? '') }
  return null
}
