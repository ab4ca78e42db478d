import { elementDescriber } from '#common/element-description.ts'
import type { TargetAlternative } from '#common/targets.ts'

/**
 * The frames from the top page down to this window, or null when one of them belongs to another
 * site (its page cannot be read, so no path to it can be written).
 */
export function framePath(view: Window): Element[] | null {
  const path: Element[] = []
  for (let current = view; current !== current.top; current = current.parent) {
    let frame: Element | null
    try {
      frame = current.frameElement
    } catch {
      return null
    }
    if (!frame) return null
    path.unshift(frame)
  }
  return path
}

const quotedAttribute = (value: string, exact: boolean | undefined) =>
  `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"${exact ? 's' : 'i'}`
const quotedText = (value: string, exact: boolean | undefined) => `${JSON.stringify(value)}${exact ? 's' : 'i'}`

/** An alternative in Playwright's selector language: what page.getByRole(…) and its kin compile to. */
export function playwrightSelector(alternative: TargetAlternative): string {
  switch (alternative.by) {
    case 'role':
      return alternative.name === undefined
        ? `internal:role=${alternative.role}`
        : `internal:role=${alternative.role}[name=${quotedAttribute(alternative.name, alternative.exact)}]`
    case 'label':
      return `internal:label=${quotedText(alternative.text, alternative.exact)}`
    case 'placeholder':
      return `internal:attr=[placeholder=${quotedAttribute(alternative.text, alternative.exact)}]`
    case 'text':
      return `internal:text=${quotedText(alternative.text, alternative.exact)}`
    case 'testId':
      return `internal:testid=[data-testid=${quotedAttribute(alternative.id, true)}]`
    case 'css':
      return alternative.selector
    case 'xpath':
      return `xpath=${alternative.path}`
    case 'column':
      throw new Error('A column is not recorded')
  }
}

/**
 * An alternative found inside frames, as the runners' page-wide locators can use it: a target
 * names no frame (common/targets.ts), so the way into each frame is written in Playwright's
 * selector language (`#checkout >> internal:control=enter-frame >> internal:role=button[name="Pay"i]`),
 * kept as a CSS alternative (docs/decisions/030).
 */
export function inFrames(alternative: TargetAlternative, frames: readonly Element[]): TargetAlternative {
  if (!frames.length) return alternative
  const entries = frames.map((frame) => `${elementDescriber(frame.ownerDocument).cssPath(frame)} >> internal:control=enter-frame`)
  return { by: 'css', selector: [...entries, playwrightSelector(alternative)].join(' >> ') }
}
