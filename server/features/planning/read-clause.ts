// One clause of a task description read into one instruction ('choose Returns in the Topic
// drop-down' -> select), or null when it names no action the planner knows. Over 300 lines because
// its patterns are one ordered list: the first that reads a clause wins, so they are kept together
// (the verb steps' patterns are in read-verb-clause.ts, tried first).

import type { Guard } from './condition-clause.ts'
import { readAddClause, type AddInstruction } from './add-clause.ts'
import { isQuoted, restore } from './quoted-parts.ts'
import { readVerbClause, type VerbInstruction } from './read-verb-clause.ts'

export type Instruction =
  | { kind: 'navigate'; url: string }
  /** 'go to the Products page' with no address: follow the link or button that says it. */
  | { kind: 'open'; element: string }
  /** `expand`: the part it opens should end open (true) or closed (false); already so, it is not clicked. */
  | { kind: 'click'; element: string; expand?: boolean }
  | { kind: 'check'; element: string; on: boolean }
  /** `was`: the value the field shows now, when the sentence says it ('change the city from Arlington to Leeds'). */
  | { kind: 'type'; element: string | null; text: string; was?: string }
  | { kind: 'select'; element: string | null; value: string }
  | { kind: 'press'; key: string; element: string | null }
  /** `first`: the word the button likely says, tried before the usual ones. */
  | { kind: 'submit'; first?: string }
  | { kind: 'search'; text: string }
  | { kind: 'signIn'; user: string; password: string }
  | { kind: 'waitTime'; ms: number }
  | { kind: 'waitFor'; element: string; quoted: boolean }
  | { kind: 'extract'; what: string; field: string | null }
  | { kind: 'screenshot'; name: string | null }
  | { kind: 'assert'; text: string }
  /** 'If the page shows "Sold out", skip it': an `if` block around a skip or a stop (condition-clause.ts). */
  | { kind: 'guard'; guard: Guard }
  /** 'If the page shows "Cookies", click Accept. Otherwise, …': the start, else and end of an if block around actions. */
  | { kind: 'if'; when: Guard['when']; text: string }
  | { kind: 'else' }
  | { kind: 'endIf' }
  | AddInstruction
  | VerbInstruction

const KEYS: Record<string, string> = {
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  escape: 'Escape',
  esc: 'Escape',
  space: 'Space',
  'arrow down': 'ArrowDown',
  'down arrow': 'ArrowDown',
  'arrow up': 'ArrowUp',
  'up arrow': 'ArrowUp',
  backspace: 'Backspace',
}

const URL_PATTERN = /^(?:https?:\/\/\S+|www\.\S+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:[/:?#]\S*)?|\/\S*)$/i

/** An address as a step needs it: 'www.x.com' and 'x.com/path' get https://; '/path' stays relative. */
function address(text: string): string | null {
  const value = text.trim().replace(/[.,;]+$/, '')
  if (!URL_PATTERN.test(value)) return null
  if (/^https?:\/\//i.test(value) || value.startsWith('/')) return value
  return `https://${value}`
}

const VERB_WORDS =
  'add|create|insert|update|edit|replace|rename|filter|try|execute|run|expand|collapse|delete|remove|double click|mouse|mark|empty|erase|switch|change|continue|carry|answer|allow|agree|reject|decline|cancel|approve|go|goto|open|visit|navigate|load|browse|head|start|launch|click|double-click|press|tap|hit|push|follow|select|choose|pick|set|type|enter|input|write|put|fill|key|paste|check|tick|uncheck|untick|toggle|wait|pause|sleep|extract|collect|get|grab|scrape|read|copy|save|record|list|capture|take|screenshot|verify|assert|ensure|confirm|expect|make|submit|send|post|search|find|tell|show|report|note|what|look|sign|log|login|signin|scroll|hover|upload|download|close|accept|dismiss|return|refresh|reload|see|how|which|give|trash|discard|destroy|cross|pop|rename'

export const STARTS_WITH_VERB = new RegExp(`^(?:then\\s+|and\\s+|next\\s+|finally\\s+|first\\s+|please\\s+)*(?:${VERB_WORDS})\\b`, 'i')

/** Filler at the start of a clause: 'then', 'and', 'first', 'please', 'I want to', 'you should'. */
export function trimFiller(clause: string): string {
  let text = clause.trim()
  for (;;) {
    const next = text
      .replace(
        /^(?:and|then|next|finally|first|firstly|after that|afterwards|lastly|also|please|now|once there|once done|when done)\b[\s,]*/i,
        '',
      )
      .replace(
        /^(?:i\s+(?:want|need|would like)\s+to|you\s+(?:should|must|need\s+to)|we\s+(?:should|need\s+to)|let'?s|try\s+to|be\s+sure\s+to)\s+/i,
        '',
      )
    if (next === text) return text
    text = next
  }
}

/** Splits a field-and-value phrase 'Email with x@y.z' or 'x@y.z into Email'. */
const KEY_NAME = (text: string) =>
  KEYS[
    text
      .trim()
      .toLowerCase()
      .replace(/\s+key$/, '')
  ]

export function readClause(raw: string, quotes: string[]): Instruction | null {
  // A question mark may end a value ('fill Message with Where is it?'); other end marks are dropped.
  // 'remove book 4 without authorizing': a step not to take first asks for no step.
  const clause = trimFiller(raw)
    .replace(/[.!;:]+$/, '')
    .replace(
      /\s+without\s+(?:first\s+)?(?:authori[sz]|authenticat|logg|sign|sav|confirm|submitt|clos|open|wait|pay)ing\b(?:\s+[\p{L}-]+){0,3}$/iu,
      '',
    )
    .trim()
  if (!clause) return null
  const q = (text: string) => restore(text, quotes).trim()
  const lower = clause.toLowerCase()
  let match: RegExpExecArray | null
  const verb = readVerbClause(clause, q)
  if (verb) return verb

  // Sign in: 'log in as X with password Y', 'sign in with X and Y', 'log in using email X and password Y'.
  if (
    (match =
      /^(?:sign|log)\s*(?:in|on)(?:\s+to\s+\S+)?\s+(?:as|with|using)\s+(?:(?:the\s+)?(?:e-?mail|username|user(?:\s+name)?|login)\s+)?(.+?)\s+(?:and|with|,)\s+(?:the\s+)?(?:password|passcode|pin)\s+(.+)$/i.exec(
        clause,
      ))
  ) {
    return { kind: 'signIn', user: q(match[1] ?? ''), password: q(match[2] ?? '') }
  }
  if ((match = /^(?:sign|log)\s*(?:in|on)\s+(?:as|with|using)\s+(\S+)\s*(?:\/|and)\s*(\S+)$/i.exec(clause))) {
    return { kind: 'signIn', user: q(match[1] ?? ''), password: q(match[2] ?? '') }
  }

  // Navigation: 'go to https://…', 'open example.com', 'visit the products page'.
  if (
    (match =
      /^(?:go(?:\s+to)?|goto|open(?:\s+up)?|visit|navigate\s+to|load|browse\s+to|head\s+(?:over\s+)?to|start\s+(?:at|on|from)|launch)\s+(?:the\s+(?:page|site|website|url|address)\s+(?:at\s+)?)?(.+)$/i.exec(
        clause,
      ))
  ) {
    const target = match[1] ?? ''
    const url = isQuoted(target) ? address(q(target)) : address(target)
    if (url) return { kind: 'navigate', url }
    if (/^back\b/i.test(target)) return null
    const words = q(target)
      .replace(/\b(?:page|tab|section|screen|site|operation|panel)$/i, '')
      .trim()
    return words ? { kind: 'open', element: words } : null
  }

  // Keys: 'press Enter', 'hit the Return key', 'press Tab in the Email field'.
  if ((match = /^(?:press|hit|tap|push)\s+(?:the\s+)?(.+?)(?:\s+(?:in|on|into)\s+(.+))?$/i.exec(clause))) {
    const key = KEY_NAME(q(match[1] ?? ''))
    if (key) return { kind: 'press', key, element: match[2] ? q(match[2]) : null }
  }

  // A new entry on a list: 'put "Renew car insurance" on my todo list', 'write Milk on the shopping list'.
  if ((match = /^(?:put|write|pop)\s+(.+?)\s+(?:on|onto|to|in|into)\s+(?:the|my|your|our)\s+(?:(.+?)\s+)?list$/i.exec(clause))) {
    return { kind: 'add', text: q(match[1] ?? ''), into: match[2] ? q(match[2]) : null }
  }

  // Typing: 'type X into Y', 'enter X in Y', 'fill Y with X', 'fill in Y: X', 'set Y to X', 'put X in Y'.
  if (
    (match = /^(?:type|enter|input|write|put|key\s+in|paste|fill\s+in|fill)\s+(.+?)\s+(?:into|in|on|inside|as)\s+(?:the\s+)?(.+)$/i.exec(
      clause,
    ))
  ) {
    const [value, field] = [match[1] ?? '', match[2] ?? '']
    if (!/^(?:the\s+)?(?:form|fields?)$/i.test(value)) return { kind: 'type', element: q(field), text: q(value) }
  }
  if ((match = /^(?:fill(?:\s+(?:in|out))?|complete|populate|enter|set)\s+(?:the\s+)?(.+?)\s+(?:with|to|as|=)\s+(.+)$/i.exec(clause))) {
    const [field, value] = [match[1] ?? '', match[2] ?? '']
    if (/^set\b/i.test(clause)) return { kind: 'select', element: q(field), value: q(value) }
    return { kind: 'type', element: q(field), text: q(value) }
  }
  if ((match = /^(?:fill(?:\s+(?:in|out))?|enter)\s+(?:the\s+)?(.+?)\s*:\s*(.+)$/i.exec(clause))) {
    return { kind: 'type', element: q(match[1] ?? ''), text: q(match[2] ?? '') }
  }
  if (
    (match = /^(?:type|enter|input|write|paste)\s+(.+)$/i.exec(clause)) &&
    (isQuoted(match[1] ?? '') || !/^(?:the|a|an|your)\b/i.test(match[1] ?? ''))
  ) {
    return { kind: 'type', element: null, text: q(match[1] ?? '') }
  }

  // 'enter the email x@y.z', 'type your password hunter2': a field's name, then its value.
  if (
    (match = /^(?:enter|type|input|fill\s+in)\s+(?:the|your|my)\s+([A-Za-z][\w -]{0,40}?)\s+(\uE000\d+\uE000|\S*[@\d]\S*|\S+)$/i.exec(
      clause,
    ))
  ) {
    return { kind: 'type', element: q(match[1] ?? ''), text: q(match[2] ?? '') }
  }

  // 'use the search box (of the editor) to find socks'.
  if (
    (match =
      /^use\s+(?:the\s+)?search(?:\s+(?:box|bar|field))?(?:\s+(?:of|on|in)\s+.+?)?\s+to\s+(?:find|search\s+for|look\s+(?:up|for))\s+(.+)$/i.exec(
        clause,
      ))
  ) {
    return { kind: 'search', text: q(match[1] ?? '') }
  }
  // Search: 'search for X', 'look up X', 'find X' (on a page with a search field); 'search the notes for X'.
  if ((match = /^search\s+(?:the|my|this|our|all(?:\s+the)?)\s+(?:[\w'’-]+\s+){1,3}?for\s+(.+)$/i.exec(clause))) {
    return { kind: 'search', text: q(match[1] ?? '') }
  }
  if (
    (match =
      /^(?:search\s+(?:for\s+)?|look\s+up\s+|look\s+for\s+|find\s+)(.+?)(?:\s+(?:in|on|using)\s+(?:the\s+)?search(?:\s+(?:box|bar|field))?)?$/i.exec(
        clause,
      ))
  ) {
    return { kind: 'search', text: q(match[1] ?? '') }
  }

  // Choosing: 'choose X in Y', 'select X from the Y drop-down', 'pick X for Y'.
  if ((match = /^(?:choose|select|pick)\s+(?:the\s+)?(?:option\s+)?(.+?)\s+(?:in|from|for|on|under|as)\s+(?:the\s+)?(.+)$/i.exec(clause))) {
    return { kind: 'select', element: q(match[2] ?? ''), value: q(match[1] ?? '') }
  }

  // Waiting: 'wait 2 seconds', 'wait for 500 ms', 'wait for "Done" to appear', 'wait until the results show'.
  if ((match = /^(?:wait|pause|sleep)(?:\s+for)?\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|min|minutes?)\b/i.exec(clause))) {
    const amount = Number(match[1])
    const unit = (match[2] ?? 's').toLowerCase()
    const ms = unit.startsWith('ms') || unit.startsWith('milli') ? amount : unit.startsWith('min') ? amount * 60_000 : amount * 1000
    return { kind: 'waitTime', ms: Math.round(ms) }
  }
  if (
    (match =
      /^(?:wait|pause)\s+(?:for|until|till)\s+(?:the\s+)?(.+?)(?:\s+(?:to\s+)?(?:appears?|shows?(?:\s+up)?|is\s+(?:shown|visible|displayed)|loads?|to\s+load|becomes?\s+visible))?$/i.exec(
        clause,
      ))
  ) {
    const what = match[1] ?? ''
    if (/^(?:the\s+)?(?:page|site|it)(?:\s+to)?(?:\s+(?:load|finish))?$/i.test(what)) return null
    return { kind: 'waitFor', element: q(what), quoted: isQuoted(what) }
  }

  // Screenshots: 'take a screenshot', 'take a screenshot called results', 'screenshot the page'.
  if (
    (match =
      /^(?:take|capture|grab|make|save)\s+(?:a\s+|an\s+|another\s+|one\s+more\s+)?(?:full[- ]page\s+)?(?:screen\s*shot|screen\s+capture|snapshot|picture)(?:\s+of\s+(?:the\s+)?(?:page|screen|results?))?(?:\s+(?:called|named|as)\s+(.+))?$/i.exec(
        clause,
      )) ||
    (match = /^screenshot(?:\s+(?:of\s+)?(?:the\s+)?(?:page|screen))?(?:\s+(?:called|named|as)\s+(.+))?$/i.exec(clause))
  ) {
    return { kind: 'screenshot', name: match[1] ? q(match[1]).slice(0, 100) : null }
  }

  /** 'the response mentions X', 'the answer is 401', 'it says X': what a check looks for is X. */
  const SAYS =
    /^(?:(?:the\s+)?(?:page|screen|site|result|response(?:\s+body)?|answer|reply|list|status(?:\s+code)?|code|message)|it|this|that|there)\s+(?:now\s+)?(?:shows?|says?|contains?|displays?|reads?|has|includes?|mentions?|is|was|equals?)\s+(?!not\b|no\b)(?:the\s+)?(?:text|message|words?)?\s*/i
  // Checks: 'check that X appears', 'make sure the page says X', 'verify "X" is shown', 'confirm X'.
  if (
    (match = /^(?:check|verify|assert|ensure|confirm|expect|make\s+sure|see)(?:\s+(?:that|if|whether))?\s+(.+)$/i.exec(clause)) &&
    (/^(?:verify|assert|ensure|confirm|expect|make|see)/i.test(lower) ||
      /^check\s+(?:that|if|whether)\b/i.test(lower) ||
      SAYS.test(match[1] ?? '') ||
      isQuoted((match[1] ?? '').split(/\s+/)[0] ?? ''))
  ) {
    // "there's an email titled 'X' in the list": what is quoted is what must show.
    const quoted = /\uE000\d+\uE000/.exec(match[1] ?? '')
    const text = quoted
      ? quoted[0]
      : (match[1] ?? '')
          .replace(SAYS, '')
          .replace(/^(?:the\s+)?(?:text|message|words?)\s+/i, '')
          .replace(
            /\s+(?:appears?|is\s+(?:shown|visible|displayed|there|present|returned|on\s+the\s+page)|shows?\s+up|comes?\s+(?:up|back)|(?:is|gets?)\s+returned|exists?|on\s+the\s+page)$/i,
            '',
          )
    const said = q(text)
    if (said) return { kind: 'assert', text: said }
  }

  // Checkboxes: 'check the Remember me box', 'tick Terms', 'uncheck Newsletter'.
  if (
    (match = /^(check|tick|select|enable|turn\s+on|uncheck|untick|clear|disable|turn\s+off)\s+(.+)$/i.exec(clause)) &&
    /^(?:check|tick|uncheck|untick|enable|disable|turn)/i.test(lower)
  ) {
    const on = !/^(?:uncheck|untick|clear|disable|turn\s+off)/i.test(match[1] ?? '')
    return { kind: 'check', element: q(match[2] ?? ''), on }
  }

  // Questions that ask for a count: 'how many items are left?' reads what says it ('3 items left').
  if (
    (match =
      /^how\s+many\s+(.+?)(?:\s+(?:are|is)(?:\s+there)?)?(?:\s+(left|remaining|open|done|completed|unread|selected|shown|listed))?(?:\s+(?:are\s+)?there)?\??$/i.exec(
        clause,
      ))
  ) {
    const what = [match[1], match[2]].filter(Boolean).join(' ')
    return { kind: 'extract', what: q(what), field: null }
  }
  // 'which notes mention it?', 'which tags does it use?': the things it names, all of them.
  if ((match = /^(?:(?:tell|show|give)\s+me\s+|list\s+)?which\s+(?!(?:is|was|has|does|this|its)\b)([\p{L}-]+s)\b/iu.exec(clause)))
    return { kind: 'extract', what: `all the ${match[1]}`, field: null }
  // Questions that ask for a value: 'tell me the total', 'what is the order status'.
  if (
    (match = /^(?:tell\s+me|show\s+me|give\s+me|report|note\s+down|write\s+down|what\s+is|what's|what\s+are)\s+(.+?)\??$/i.exec(clause))
  ) {
    return { kind: 'extract', what: q(match[1] ?? ''), field: null }
  }

  // 'save it', 'save the changes', 'save the order': the page's own Save (or OK, Done) button; 'save X as Y' reads.
  if (/^save(?:\s+(?:it|this|that|them|(?:the|my|your|this)\s+[\w-]+|changes?))?$/i.test(clause)) return { kind: 'submit', first: 'save' }

  // Extraction: 'extract the prices as price', 'collect all product names', 'get the heading'.
  if (
    (match =
      /^(?:extract|collect|get|grab|scrape|read|copy|save|record|list|capture|pull)\s+(?:out\s+)?(.+?)(?:(?:\s+(?:as|into|in(?:to)?\s+(?:a\s+)?(?:column|field))|(?<!\b(?:has|have|had|needs?|is|are|was|were|going|ought|used|due|able|wants?))\s+to)\s+(?:a\s+)?(?:column\s+|field\s+)?(?:called\s+|named\s+)?(.+))?$/i.exec(
        clause,
      ))
  ) {
    // 'as price', 'to a column called price' name the field; 'the date it has to be back' does not.
    // Where the values are is for the planner to find: 'the prices from the table' asks for the prices.
    // 'on each page' is kept: it asks to read every page (plan-extract.ts).
    const what = q(match[1] ?? '').replace(
      /\s+(?:from|in|on|of)\s+(?:the|this|each)\s+(?:table|page|list|results?|site|screen)$/i,
      (said) => (/\beach\s+page$/i.test(said) ? said : ''),
    )
    const field = match[2] ? q(match[2]) : null
    return { kind: 'extract', what, field }
  }

  // Changing a value: 'change the city from Arlington to Leeds', 'update Quantity to 3', 'replace Arlington with Leeds'.
  if ((match = /^(?:change|update|edit|set)\s+(?:the\s+)?(.+?)\s+from\s+(.+?)\s+to\s+(.+)$/i.exec(clause))) {
    return { kind: 'type', element: q(match[1] ?? ''), text: q(match[3] ?? ''), was: q(match[2] ?? '') }
  }
  if ((match = /^(?:change|update|edit|rename)\s+(?:the\s+)?(.+?)\s+(?:to|into)\s+(?:be\s+)?(.+)$/i.exec(clause))) {
    // "change 'Call the plumber' to …": a quoted text is the value shown now, edited where it is.
    if (isQuoted(match[1] ?? '')) return { kind: 'type', element: null, text: q(match[2] ?? ''), was: q(match[1] ?? '') }
    return { kind: 'type', element: q(match[1] ?? ''), text: q(match[2] ?? '') }
  }
  if ((match = /^replace\s+(.+?)\s+with\s+(.+)$/i.exec(clause))) {
    return { kind: 'type', element: null, text: q(match[2] ?? ''), was: q(match[1] ?? '') }
  }

  // Opening and closing a part of the page: 'expand the Book schema', 'collapse all fields of the tree'.
  if ((match = /^(?:expand|collapse|unfold|fold)\s+(.+)$/i.exec(clause))) {
    const verb = (clause.split(/\s+/)[0] ?? '').toLowerCase()
    // 'collapse all fields' is a control of its own; 'expand the Book schema at the bottom' opens Book.
    if (/^(?:all|every|everything)\b/i.test(match[1] ?? '')) return { kind: 'click', element: q(clause) }
    const what = q(match[1] ?? '')
      .replace(/\s+(?:at|on|near)\s+the\s+(?:top|bottom|end|side|left|right)$/i, '')
      .replace(/^(?:the|a|an)\s+/i, '')
      .replace(/\s+(?:section|schema|panel|part|group|node|folder|tree|list|menu|row)$/i, '')
    return { kind: 'click', element: what || verb, expand: /^(?:expand|unfold)$/.test(verb) }
  }

  // Views and filters: 'show only the active todos', 'switch to the Completed view', 'filter by Unread'.
  if ((match = /^(?:show|view|display|list|see)\s+only\s+(?:the\s+)?(.+)$/i.exec(clause))) {
    const words = q(match[1] ?? '').split(/\s+/)
    // 'the active todos': the filter is named by the words before the things ('Active').
    return { kind: 'click', element: (words.length > 1 ? words.slice(0, -1) : words).join(' ') }
  }
  // 'look under More', 'look in the Settings tab', 'in the Tags tab': that part of the page opened.
  if ((match = /^(?:look|peek)\s+(?:under|in|into)\s+(?:the\s+)?(.+)$/i.exec(clause))) {
    // A part looked under is most often a tab ('More'), not another control that says the same.
    const part = q(match[1] ?? '')
    return { kind: 'click', element: /\b(?:tab|section|menu|panel)$/i.test(part) ? part : `${part} tab` }
  }
  if ((match = /^(?:in|on|under)\s+(?:the\s+)?(.+?\s+(?:tab|section|menu|panel))$/i.exec(clause))) {
    return { kind: 'click', element: q(match[1] ?? '') }
  }
  // 'switch the editor to Code mode', 'set the view to Grid': the control that says the editor's mode, set to Code.
  if (
    (match = /^(?:switch|flip|put|turn|set)\s+(?:the\s+)?(.+?)\s+(?:to|into)\s+(?:the\s+)?(.+?)\s+(mode|view|layout|theme|display)$/i.exec(
      clause,
    ))
  ) {
    return { kind: 'select', element: `${q(match[1] ?? '')} ${(match[3] ?? '').toLowerCase()}`, value: q(match[2] ?? '') }
  }
  if (
    (match = /^(?:switch|change|flip)\s+to\s+(?:the\s+)?(.+?)(?:\s+(?:view|tab|filter|section|list|mode|page))?$/i.exec(clause)) ||
    (match = /^filter\s+(?:the\s+\S+\s+)?(?:by|to|on|for)\s+(?:the\s+)?(.+)$/i.exec(clause))
  ) {
    return { kind: 'click', element: q(match[1] ?? '') }
  }

  // Adding to a list: 'add a todo "Buy milk"', 'add "Buy milk" to the list'.
  const add = readAddClause(clause, q)
  if (add) return add

  // Submitting: 'submit the form', 'submit', 'send it'; 'send the message' clicks what says so.
  if (/^(?:submit|send)(?:\s+(?:the\s+)?(?:form|it|details|search|order))?$/i.test(clause)) return { kind: 'submit' }
  if ((match = /^(?:send|post|save)\s+(?:the\s+|my\s+|your\s+)?(.+)$/i.exec(clause))) {
    return { kind: 'click', element: `${clause.split(/\s+/)[0] ?? 'send'} ${q(match[1] ?? '')}` }
  }

  // Clicking: 'click Sign in', 'click on the Next link', 'press the Send button', 'follow the Products link', 'select Returns'.
  if (
    (match = /^(?:(?:double-)?click|press|tap|hit|push|follow|select|choose|pick|open|activate|use)(?:\s+(?:on|onto))?\s+(.+)$/i.exec(
      clause,
    ))
  ) {
    return { kind: 'click', element: q(match[1] ?? '') }
  }
  // Accepting or closing: 'accept the cookies', 'close the dialog'.
  if ((match = /^(accept|dismiss|close|decline|reject)\s+(?:the\s+|all\s+)?(.+)$/i.exec(clause))) {
    return { kind: 'click', element: `${match[1]} ${q(match[2] ?? '')}` }
  }
  return null
}
