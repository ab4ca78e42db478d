// Reads a task said in plain words into instructions, one per action: "Open https://shop.example,
// search for 'rain jacket', then extract the prices as price" -> navigate, search, extract. No
// page is looked at here: the offline planner (offline-planner.ts) finds the elements the
// instructions name on the page. What it cannot read is kept as text, so the planner can say which
// part of the sentence it did not use.

import { MAX_DESCRIPTION_LENGTH } from '#common/planning.ts'
import { guardOf, isConditionAlone, readCondition } from './condition-clause.ts'
import { protect, restore, restoreQuoted } from './quoted-parts.ts'
import { readClause, STARTS_WITH_VERB, trimFiller, type Instruction } from './read-clause.ts'

export type Read = { instruction: Instruction; source: string } | { unread: string }

/**
 * A clause without a verb of its own that continues the previous instruction: 'and B into Email'
 * after 'type A into Name', 'and Email with B' after 'fill Name with A', 'and the prices as price'
 * after an extract. Clicks do not continue ('click Terms and Conditions' is one name).
 */
function continuation(previous: Instruction, clause: string, quotes: string[]): Instruction | null {
  const text = trimFiller(clause)
  if (listsParts(previous)) return null
  let read: Instruction | null = null
  if (previous.kind === 'type') {
    if (/\s+with\s+/i.test(text)) read = readClause(`fill ${text}`, quotes)
    else if (/\s+(?:into|in|on|as)\s+/i.test(text)) read = readClause(`type ${text}`, quotes)
  } else if (previous.kind === 'select' && /\s+(?:in|from|for|on|as)\s+/i.test(text)) read = readClause(`choose ${text}`, quotes)
  // 'extract the names and the prices (as price)': a short noun phrase after an extract is another one.
  // 'add Buy bread, Feed the cat and Fix the bike': each is another entry of the same kind.
  else if (previous.kind === 'add' && text.split(/\s+/).length <= 8)
    return { kind: 'add', text: restore(text, quotes).trim(), into: previous.into }
  else if (previous.kind === 'extract' && (/\s+as\s+/i.test(text) || text.split(/\s+/).length <= 4))
    read = readClause(`extract ${text}`, quotes)
  return read && read.kind === previous.kind ? read : null
}

/** 'extract the products with name, price': the words after it name more parts, not another action. */
const listsParts = (instruction: Instruction | null) => instruction?.kind === 'extract' && /\s(?:with|including)\s/i.test(instruction.what)

/**
 * Reads a description into instructions, in order. Clauses end at sentence ends, new lines and
 * 'then'; at commas and 'and' only when what follows reads as an action of its own (or continues
 * the previous one: 'type A into Name and B into Email'), so 'Terms and Conditions' stays one name.
 */
export function readInstructions(description: string): Read[] {
  const { text: said, quotes } = protect(description.slice(0, MAX_DESCRIPTION_LENGTH))
  const text = withoutHints(said)
  const sentences = text
    .split(/(?<=[.!?;])\s+(?=\S)|\n+|\s+[-–—]\s+|\s*,?\s*\b(?:and\s+)?then\b\s*,?\s*|\s*,?\s*\bafter\s+that\b\s*,?\s*/i)
    .map((part) => part?.trim())
    .filter((part): part is string => Boolean(part))
  const reads: Read[] = []
  let last: Instruction | null = null
  const push = (instruction: Instruction, source: string) => {
    reads.push({ instruction, source: restoreQuoted(trimFiller(source), quotes) })
    last = instruction
  }
  const marker = (instruction: Instruction, source: string) => reads.push({ instruction, source: restoreQuoted(source, quotes) })
  for (let index = 0; index < sentences.length; index += 1) {
    // 'Otherwise, click Buy': after a skip or a stop, the steps that follow are the otherwise.
    let sentence = (sentences[index] as string).replace(OTHERWISE, '')
    if (!sentence) continue
    // 'If it says "Sold out" then skip it' was split at 'then'.
    if (isConditionAlone(sentence) && index + 1 < sentences.length) {
      index += 1
      sentence = `${sentence}, ${sentences[index]}`
    }
    const condition = readCondition(sentence, quotes)
    const guard = condition && guardOf(condition, quotes)
    if (guard) {
      marker({ kind: 'guard', guard }, trimFiller(sentence))
      continue
    }
    if (condition?.rest) {
      // 'If the page shows "Cookies", click Accept. Otherwise, …': the actions inside an if block.
      marker({ kind: 'if', when: condition.when, text: condition.text }, trimFiller(sentence))
      readSentence(condition.rest)
      const next = sentences[index + 1]
      if (next && OTHERWISE.test(next)) {
        index += 1
        marker({ kind: 'else' }, 'otherwise')
        readSentence(next.replace(OTHERWISE, ''))
      }
      marker({ kind: 'endIf' }, 'end of the condition')
      continue
    }
    readSentence(sentence)
  }
  return withAntecedents(withQuestionsAnsweredLater(reads))

  /** One sentence's clauses, in order. */
  function readSentence(sentence: string) {
    // Pieces at each comma or ' and ', with the separators between them.
    const parts = sentence.split(/(\s*,\s*(?:and\s+)?|\s+and\s+)/i)
    let pending = ''
    const flush = () => {
      if (!pending) return
      const instruction = readClause(pending, quotes)
      if (instruction) push(instruction, pending)
      else reads.push({ unread: restoreQuoted(trimFiller(pending), quotes) })
      pending = ''
    }
    for (let index = 0; index < parts.length; index += 2) {
      const piece = (parts[index] ?? '').trim()
      const separator = parts[index - 1] ?? ''
      if (!piece) continue
      const alone = STARTS_WITH_VERB.test(piece) ? readClause(piece, quotes) : null
      const previous = pending ? readClause(pending, quotes) : last
      const borrowed = alone || !previous ? null : continuation(previous, piece, quotes)
      if (!pending) {
        if (alone || !borrowed) pending = piece
        else push(borrowed, piece)
      } else if (alone) {
        flush()
        pending = piece
      } else if (borrowed) {
        flush()
        push(borrowed, piece)
      } else if (separator.includes(',') && !listsParts(previous)) {
        // A comma ends a clause; 'and' only before an action of its own ('Terms and Conditions').
        flush()
        pending = piece
      } else {
        // The separator belonged to the words ('Terms and Conditions'): keep it.
        pending = `${pending}${separator}${piece}`
      }
    }
    flush()
  }
}

const OTHERWISE = /^(?:otherwise|else|if\s+not)\b\s*,?\s*/i

/**
 * 'Which tags does it use? Look under More, in the Tags tab, and read them': a question asked
 * first is answered where 'read them' says, after the steps that lead there.
 */
function withQuestionsAnsweredLater(reads: Read[]): Read[] {
  const out = [...reads]
  for (let index = 0; index < out.length; index += 1) {
    const read = out[index] as Read
    if (!('instruction' in read) || read.instruction.kind !== 'extract' || !PRONOUN.test(read.instruction.what)) continue
    const asked = out.slice(0, index).findLastIndex((earlier) => 'instruction' in earlier && earlier.instruction.kind === 'extract')
    const question = out[asked]
    if (!question || !('instruction' in question) || question.instruction.kind !== 'extract') continue
    if (!/^(?:which|what|how|who|when|where)\b|\?$/i.test(question.source)) continue
    const { what, field } = question.instruction
    out[index] = { ...read, instruction: { kind: 'extract', what, field: read.instruction.field ?? field } }
    out.splice(asked, 1)
    index -= 1
  }
  return out
}

/**
 * A part in brackets is a hint: '(double-click it to edit)' says how, and the planner finds the
 * way itself; one that reads as an action of its own ('(then press Save)') is a clause.
 */
function withoutHints(text: string): string {
  return text.replace(/\s*\(([^()]*)\)/g, (_, inside: string) =>
    STARTS_WITH_VERB.test(inside.trim()) && !PRONOUN_IN.test(inside) ? `, ${inside.trim()},` : '',
  )
}

const PRONOUN = /^(?:it|them|this|that|this\s+one|that\s+one|the\s+one|those|these)$/i
const PRONOUN_IN = /\b(?:it|them|its|their)\b/i

/** What a clause names that 'it' may point back to: the entry added, the element acted on, the subject of a plain statement. */
function named(read: Read): string | null {
  if ('unread' in read) {
    // 'Return library books isn't finished after all': the subject, before its verb.
    const subject = /^(.+?)\s+(?:is|isn't|is\s+not|are|aren't|was|wasn't|has|hasn't|needs|should)\b/i.exec(read.unread)?.[1]
    return subject ? subject.replace(/^["“]|["”]$/g, '').trim() : null
  }
  const instruction = read.instruction
  if (instruction.kind === 'add') return instruction.text
  if ('element' in instruction && typeof instruction.element === 'string' && !PRONOUN.test(instruction.element)) return instruction.element
  if (instruction.kind === 'type' && instruction.was) return instruction.text
  return null
}

/** 'Add "Buy stamps", then check it off': 'it' is the thing the clause before named. */
function withAntecedents(reads: Read[]): Read[] {
  let last: string | null = null
  return reads.map((read) => {
    let resolved = read
    if ('instruction' in read && 'element' in read.instruction && PRONOUN.test(read.instruction.element ?? '') && last) {
      resolved = { ...read, instruction: { ...read.instruction, element: last } as Instruction }
    }
    last = named(resolved) ?? last
    return resolved
  })
}
