import type { Frame, Locator } from 'playwright-core'
import { pageOrigin } from '#common/secret-origins.ts'
import { short } from '#common/step-log-words.ts'

/** A type step that types vault values: their placeholders, and the origins every one of them may be typed on (docs/decisions/039). */
export interface SecretTyping {
  placeholders: readonly string[]
  origins: readonly string[]
  /** Those whose sites were set from the automations and nobody who knows the value confirmed them in time (docs/decisions/039, amended). */
  unconfirmed?: readonly string[]
}

/**
 * Why a vault value may not be typed into a field of this frame, or null when it may: the frame
 * that holds the field, and every frame around it up to the page, must show a page of one of the
 * secret's origins now (after redirects; read from the browser, not from the page's scripts). A
 * frame on about:blank, srcdoc or data: has no origin of its own and is refused.
 */
export function secretOriginRefusal(frame: Frame, typing: SecretTyping): string | null {
  const named = typing.placeholders.join(' and ')
  if (typing.unconfirmed?.length) {
    const which = typing.unconfirmed.join(' and ')
    return `${which} may be typed only on sites confirmed by someone who knows the value: ${typing.unconfirmed.length > 1 ? 'their sites were' : 'its sites were'} set from the automations and nobody confirmed them in Vault (the value was not typed)`
  }
  if (typing.origins.length === 0) {
    return `${named} names no site it may be typed on${typing.placeholders.length > 1 ? ' in common' : ''}: name its sites in Vault (the value was not typed)`
  }
  const allowed = `${named} may only be typed on ${typing.origins.join(', ')}`
  for (let each: Frame | null = frame; each; each = each.parentFrame()) {
    const origin = pageOrigin(each.url())
    if (origin && typing.origins.includes(origin)) continue
    const where = each === frame ? (frame.parentFrame() ? 'in a frame of' : 'on a page of') : 'inside a page of'
    return `${allowed}; the field is ${where} ${origin ?? short(each.url() || 'a page without an address', 80)} (the value was not typed)`
  }
  return null
}

/**
 * Types vault values into the field the locator found, if its frames show the secret's sites at
 * this moment: the element is taken once, its frames checked, and it is filled through that same
 * handle (a navigation in between detaches it, and the fill fails). Answers why not (nothing was
 * typed), or null once typed; Playwright's own errors (a timeout) are thrown. Like a password
 * manager, it fills form fields only (an input or a text area, whose value no text of the page
 * shows): an editable element shows what it is given as its text, which a step could read back.
 */
export async function typeOnOwnSite(field: Locator, text: string, typing: SecretTyping, timeoutMs: number): Promise<string | null> {
  const handle = await field.elementHandle({ timeout: timeoutMs })
  try {
    const frame = await handle.ownerFrame()
    const refusal = frame ? secretOriginRefusal(frame, typing) : 'the field is no longer on the page (the value was not typed)'
    if (refusal) return refusal
    // What Playwright's fill would write into: an element that is itself editable text (a label leads to its field, which never is).
    const editable = await handle.evaluate((element) =>
      element instanceof HTMLElement && element.isContentEditable && !element.matches('input, textarea, select')
        ? element.tagName.toLowerCase()
        : null,
    )
    if (editable)
      return `${typing.placeholders.join(' and ')} may only be typed into a form field (an input or a text area); this is an editable <${editable}>, whose text the page shows (the value was not typed)`
    await handle.fill(text, { timeout: timeoutMs })
    return null
  } finally {
    await handle.dispose().catch(() => {})
  }
}
