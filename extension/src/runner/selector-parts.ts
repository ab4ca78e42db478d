import type { TargetAlternative } from '#common/targets.ts'

// The recorder writes elements inside frames as one CSS alternative in Playwright's selector
// language (extension/src/recorder/frame-path.ts): the frames' CSS paths, each followed by
// `internal:control=enter-frame`, then the element's own way in words. This reads that form back.

const ENTER_FRAME = ' >> internal:control=enter-frame >> '

/** A CSS alternative split into the frames to enter (their CSS paths) and the way to the element inside the last. */
export function splitFrames(selector: string): { frames: string[]; inner: TargetAlternative } {
  const parts = selector.split(ENTER_FRAME)
  const last = parts.pop() as string
  return { frames: parts, inner: parts.length ? alternativeOf(last) : { by: 'css', selector: last } }
}

/** A quoted value with its case flag: "…"i (any case, part of it) or "…"s (exact). */
const QUOTED = String.raw`"((?:[^"\\]|\\.)*)"([is])`
const unescape = (value: string) => value.replace(/\\(.)/g, '$1')
const exactOf = (flag: string) => (flag === 's' ? { exact: true } : {})

/** One of Playwright's selectors as frame-path.ts writes it (playwrightSelector), back as an alternative; else CSS. */
export function alternativeOf(selector: string): TargetAlternative {
  let match = new RegExp(String.raw`^internal:role=([a-z]+)(?:\[name=${QUOTED}\])?$`).exec(selector)
  if (match) {
    const role = match[1] as Extract<TargetAlternative, { by: 'role' }>['role']
    return match[2] === undefined ? { by: 'role', role } : { by: 'role', role, name: unescape(match[2]), ...exactOf(match[3] ?? '') }
  }
  match = new RegExp(`^internal:(label|text)=${QUOTED}$`).exec(selector)
  if (match) return { by: match[1] as 'label' | 'text', text: JSON.parse(`"${match[2]}"`) as string, ...exactOf(match[3] ?? '') }
  match = new RegExp(String.raw`^internal:attr=\[placeholder=${QUOTED}\]$`).exec(selector)
  if (match) return { by: 'placeholder', text: unescape(match[1] ?? ''), ...exactOf(match[2] ?? '') }
  match = new RegExp(String.raw`^internal:testid=\[data-testid=${QUOTED}\]$`).exec(selector)
  if (match) return { by: 'testId', id: unescape(match[1] ?? '') }
  if (selector.startsWith('xpath=')) return { by: 'xpath', path: selector.slice('xpath='.length) }
  return { by: 'css', selector }
}
