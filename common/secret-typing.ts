import { pageOrigin } from './secret-origins.ts'
import { short } from './step-log-words.ts'

/** A type step that types vault values: their placeholders, and the origins every one of them may be typed on (docs/decisions/039). */
export interface SecretTyping {
  placeholders: readonly string[]
  origins: readonly string[]
  /** Those whose sites were set from the automations and nobody who knows the value confirmed them in time (docs/decisions/039, amended). */
  unconfirmed?: readonly string[]
}

/**
 * Why a vault value may not be typed into a field, or null when it may: the frame that holds the
 * field and every frame around it up to the page (`frames`, their addresses from the field's
 * outwards, as the browser has them after redirects, never as a page's scripts say) must each
 * show a page of one of the secret's origins. A frame on about:blank, srcdoc or data: has no
 * origin of its own and is refused. The cloud and the local runner read the frames from
 * Playwright, the extension from the windows around the field.
 */
export function secretOriginRefusal(typing: SecretTyping, frames: readonly string[]): string | null {
  const named = typing.placeholders.join(' and ')
  if (typing.unconfirmed?.length) {
    const which = typing.unconfirmed.join(' and ')
    return `${which} may be typed only on sites confirmed by someone who knows the value: ${typing.unconfirmed.length > 1 ? 'their sites were' : 'its sites were'} set from the automations and nobody confirmed them in Vault (the value was not typed)`
  }
  if (typing.origins.length === 0) {
    return `${named} names no site it may be typed on${typing.placeholders.length > 1 ? ' in common' : ''}: name its sites in Vault (the value was not typed)`
  }
  const allowed = `${named} may only be typed on ${typing.origins.join(', ')}`
  for (const [index, url] of frames.entries()) {
    const origin = pageOrigin(url)
    if (origin && typing.origins.includes(origin)) continue
    const where = index === 0 ? (frames.length > 1 ? 'in a frame of' : 'on a page of') : 'inside a page of'
    return `${allowed}; the field is ${where} ${origin ?? short(url || 'a page without an address', 80)} (the value was not typed)`
  }
  return null
}

/** Like a password manager, a vault value goes into a form field only: an editable element shows its text to the page. */
export const notAFormField = (typing: SecretTyping, tag: string) =>
  `${typing.placeholders.join(' and ')} may only be typed into a form field (an input or a text area); this is an editable <${tag}>, whose text the page shows (the value was not typed)`
