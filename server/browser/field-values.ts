import type { Locator } from 'playwright-core'
import { valueForInput } from '#common/field-values.ts'

/** The text a type step fills in, in the format the field takes (a date field: yyyy-mm-dd). */
export async function typedValue(field: Locator, text: string, timeoutMs: number): Promise<string> {
  const inputType = await field
    .evaluate((element) => (element instanceof HTMLInputElement ? element.type : ''), undefined, { timeout: timeoutMs })
    .catch(() => '')
  return valueForInput(inputType, text)
}

/**
 * The value of the drop-down's option a select step means: its value, else its visible label
 * (exact, then ignoring case and spaces). Null when none is there yet: Playwright then waits for it.
 */
export async function optionValue(select: Locator, wanted: string, timeoutMs: number): Promise<string | null> {
  return select
    .evaluate(
      (element, wanted) => {
        if (!(element instanceof HTMLSelectElement)) return null
        const options = [...element.options]
        const loose = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase()
        const option =
          options.find((item) => item.value === wanted) ??
          options.find((item) => item.label === wanted) ??
          options.find((item) => loose(item.label) === loose(wanted)) ??
          options.find((item) => loose(item.value) === loose(wanted))
        return option?.value ?? null
      },
      wanted,
      { timeout: timeoutMs },
    )
    .catch(() => null)
}
