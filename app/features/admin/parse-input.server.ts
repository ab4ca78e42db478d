import { ValidationError } from '#common/errors.ts'
import type { z } from '#common/zod.ts'

/** Parses an action's input with a shared schema; a broken rule is a ValidationError naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const path = issue?.path.join('.') ?? ''
  throw new ValidationError(issue?.message ?? 'Invalid input', issue ? [{ path, message: issue.message }] : undefined)
}
