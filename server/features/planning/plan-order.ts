// The order the planners follow: the member's, with two exceptions people expect. "…, then check
// that X appears. Start at https://…" starts there, wherever the sentence says it; and a sentence
// that begins "Open <the start page>" does not go there twice.

import type { Read } from './instructions.ts'

const STARTS_AT = /^(?:start|begin)(?:\s+(?:at|on|from|with))?\b/i

/** An address as the browser would load it, for telling two ways of writing it apart. */
function sameAddress(one: string, other: string): boolean {
  if (!URL.canParse(one) || !URL.canParse(other)) return one === other
  const a = new URL(one)
  const b = new URL(other)
  a.hash = ''
  b.hash = ''
  return a.href.replace(/\/$/, '') === b.href.replace(/\/$/, '')
}

/**
 * The start page and the reads in the order to plan them. A "start at <url>" anywhere in the
 * sentence is the start (a full address replaces the start page given beside the sentence, a
 * path is read against it); a first "go to" the start page is left out, since the plan opens it.
 */
export function inPlanningOrder(reads: Read[], start: string | null): { start: string | null; reads: Read[] } {
  let ordered = [...reads]
  const startIndex = ordered.findIndex(
    (read) => 'instruction' in read && read.instruction.kind === 'navigate' && STARTS_AT.test(read.source),
  )
  const said = ordered[startIndex]
  if (said && 'instruction' in said && said.instruction.kind === 'navigate') {
    const url = said.instruction.url
    const absolute = /^https?:\/\//i.test(url) ? url : start && URL.canParse(url, start) ? new URL(url, start).toString() : null
    if (absolute) {
      start = absolute
      ordered.splice(startIndex, 1)
    } else {
      // A path with nothing to read it against: still the first thing to do.
      ordered = [said, ...ordered.filter((_, index) => index !== startIndex)]
    }
  }
  const first = ordered[0]
  if (start && first && 'instruction' in first && first.instruction.kind === 'navigate') {
    const url = first.instruction.url
    const absolute = /^https?:\/\//i.test(url) ? url : URL.canParse(url, start) ? new URL(url, start).toString() : url
    if (sameAddress(absolute, start)) ordered.shift()
  }
  return { start, reads: ordered }
}
