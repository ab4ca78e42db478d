// Quoted parts of a task description stand for themselves ('type "a, b and c" into Notes'): they
// are taken out before the sentence is split, and put back in the values.

/** Quoted parts stand for themselves: they are taken out before the sentence is split. */
export interface Protected {
  text: string
  quotes: string[]
}

const QUOTES = /"([^"]*)"|“([^”]*)”|‘([^’]*)’|(?<![\p{L}\p{N}])'([^']*)'(?![\p{L}\p{N}])/gu

export function protect(text: string): Protected {
  const quotes: string[] = []
  const replaced = text.replace(QUOTES, (...groups: unknown[]) => {
    const inner = groups.slice(1, 5).find((group) => typeof group === 'string') as string
    quotes.push(inner)
    return `\uE000${quotes.length - 1}\uE000`
  })
  return { text: replaced, quotes }
}

/** The clause with its quoted parts back, quotes dropped ('type \0 0 \0' -> 'type rain jacket'). */
export const restore = (text: string, quotes: string[]) =>
  text.replace(/\uE000(\d+)\uE000/g, (_, index: string) => quotes[Number(index)] ?? '')
/** The same, quotes kept, for notes. */
export const restoreQuoted = (text: string, quotes: string[]) =>
  text.replace(/\uE000(\d+)\uE000/g, (_, index: string) => `"${quotes[Number(index)] ?? ''}"`)
export const isQuoted = (text: string) => /^\uE000\d+\uE000$/.test(text.trim())
