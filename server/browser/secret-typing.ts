import type { Frame, Locator } from 'playwright-core'
import { notAFormField, secretOriginRefusal, type SecretTyping } from '#common/secret-typing.ts'

/** The frames from the one holding the field out to the page, as the browser has their addresses. */
function framesOutward(frame: Frame): string[] {
  const urls: string[] = []
  for (let each: Frame | null = frame; each; each = each.parentFrame()) urls.push(each.url())
  return urls
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
    const refusal = frame
      ? secretOriginRefusal(typing, framesOutward(frame))
      : 'the field is no longer on the page (the value was not typed)'
    if (refusal) return refusal
    // What Playwright's fill would write into: an element that is itself editable text (a label leads to its field, which never is).
    const editable = await handle.evaluate((element) =>
      element instanceof HTMLElement && element.isContentEditable && !element.matches('input, textarea, select')
        ? element.tagName.toLowerCase()
        : null,
    )
    if (editable) return notAFormField(typing, editable)
    await handle.fill(text, { timeout: timeoutMs })
    return null
  } finally {
    await handle.dispose().catch(() => {})
  }
}
