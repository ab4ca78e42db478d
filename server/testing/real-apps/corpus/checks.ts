import type { AutomationStep } from '#common/automation-steps.ts'
import type { OutcomeCheck, RunEvidence } from './types.ts'

// The pieces the corpus's checks are made of.

const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase()

/** An extract of every element the CSS selector matches, into the check's own field. */
export const readAll = (selector: string, field: string): AutomationStep => ({
  type: 'extract',
  target: [{ by: 'css', selector }],
  field: `check_${field}`,
})

/** An assertText on the element the CSS selector matches (the whole page when null). */
export const expectText = (selector: string | null, text: string): AutomationStep =>
  selector ? { type: 'assertText', target: [{ by: 'css', selector }], text } : { type: 'assertText', text }

/** The check's own field holds exactly these values, in this order. */
export const fieldIs =
  (field: string, expected: string[]) =>
  ({ fields }: RunEvidence): string | null => {
    const got = fields[`check_${field}`] ?? []
    return got.map(norm).join(' | ') === expected.map(norm).join(' | ')
      ? null
      : `${field}: expected [${expected.join(', ')}], got [${got.join(', ')}]`
  }

/** Some value of the check's own field says each of these (a list row that shows more than its title). */
export const fieldMentions =
  (field: string, expected: string[]) =>
  ({ fields }: RunEvidence): string | null => {
    const got = (fields[`check_${field}`] ?? []).map(norm)
    const missing = expected.filter((value) => !got.some((each) => each.includes(norm(value))))
    return missing.length ? `${field}: none mentions ${missing.join(', ')} (got [${got.join(', ')}])` : null
  }

/** The check's own field holds these values (and perhaps others) — or, with `absent`, none of them. */
export const fieldHas =
  (field: string, expected: string[], absent = false) =>
  ({ fields }: RunEvidence): string | null => {
    const got = (fields[`check_${field}`] ?? []).map(norm)
    const wrong = expected.filter((value) => got.includes(norm(value)) === absent)
    return wrong.length ? `${field}: ${absent ? 'still has' : 'lacks'} ${wrong.join(', ')} (got [${got.join(', ')}])` : null
  }

/** Some field the planned steps extracted holds every expected value (each value contains the expected text). */
export const extracted =
  (expected: string[]) =>
  ({ fields }: RunEvidence): string | null => {
    const planned = Object.entries(fields).filter(([name]) => !name.startsWith('check_'))
    const fits = planned.some(([, values]) => expected.every((want) => values.some((value) => norm(value).includes(norm(want)))))
    const some = planned.map(([name, values]) => `${name}=[${values.slice(0, 6).join(', ')}]`).join('; ')
    return fits ? null : `no extracted field holds ${expected.join(', ')} (extracted: ${some || 'nothing'})`
  }

/** Every judgement holds. */
export const all =
  (...judges: OutcomeCheck['judge'][]): OutcomeCheck['judge'] =>
  async (evidence) => {
    for (const judge of judges) {
      const why = await judge(evidence)
      if (why) return why
    }
    return null
  }

/** Nothing to judge beyond the check's steps succeeding (their assertTexts). */
export const stepsPassed: OutcomeCheck['judge'] = () => null
