import { ValidationError } from '#common/errors.ts'

/** The two JSON fields of the template dialog, each refused with a message naming it when it is not JSON. */
function json(value: FormDataEntryValue | undefined, field: 'steps' | 'inputs', what: string): unknown {
  if (value === undefined) return undefined
  const text = String(value).trim()
  if (!text) return field === 'inputs' ? [] : undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new ValidationError(`${what} must be JSON: a list, as [ … ].`, [
      { path: field, message: `${what} must be JSON: a list, as [ … ].` },
    ])
  }
}

/**
 * The template dialog's fields as templateCreateSchema and templateUpdateSchema read them: the
 * checkboxes as booleans (a form sends nothing for an unchecked one), steps and inputs from JSON.
 */
export function templateFormInput(form: Record<string, FormDataEntryValue>) {
  return {
    name: form.name,
    category: form.category,
    description: form.description ?? '',
    steps: json(form.steps, 'steps', 'Steps'),
    inputs: json(form.inputs, 'inputs', 'Inputs'),
    advanced: form.advanced === 'on',
    published: form.published === 'on',
  }
}
