/** What 'extract the products with name and price on every page as items' asks for, in parts. */
export interface ExtractRequest {
  /** The thing itself: 'products'. */
  words: string
  /** The words as the member said them ('its ingredients'). */
  said: string
  /** The parts of each item asked for: ['name', 'price']. */
  parts: string[]
  /** Read every page the next-page control leads to. */
  pages: boolean
  /** The field the member named, if any. */
  field: string | null
}

const PAGES = /[\s,]*(?:(?:on|from|across|in|over|for|through)\s+)?(?:every|all(?:\s+the)?|each)\s+(?:of\s+the\s+)?(?:result\s+)?pages?\b/i
const PARTS = /\s+(?:with|including|showing|and\s+their|incl\.?)\s+(?:their\s+|the\s+|its\s+)?(.+)$/i

/** Reads the words of an extract instruction (read-clause.ts gave `what` and the field). */
export function readExtractRequest(what: string, field: string | null): ExtractRequest {
  const pages = PAGES.test(what) || (field !== null && PAGES.test(field))
  let words = what.replace(PAGES, '').trim()
  const named = field?.replace(PAGES, '').trim() || null
  const parts: string[] = []
  const withParts = PARTS.exec(words)
  if (withParts) {
    words = words.slice(0, withParts.index)
    parts.push(
      ...(withParts[1] ?? '')
        .replace(/[()]/g, ' ')
        .split(/\s*(?:,|&|\band\b)\s*/i)
        .map((part) => part.replace(/^(?:the|their|its|a|an)\s+/i, '').trim())
        .filter(Boolean),
    )
  }
  words = words
    // 'everything on the todo list' asks for the list.
    .replace(/^(?:everything|all\s+(?:of\s+)?it|the\s+whole\s+(?:thing|lot))\s+(?:on|in|from)\s+/i, '')
    .replace(/^(?:all|every|each)\s+(?:of\s+)?/i, '')
    .replace(/^(?:the|a|an|their|its|his|her|our|your|my|this)\s+/i, '')
    .trim()
  return { words, said: what, parts, pages, field: named }
}
