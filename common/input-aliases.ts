import { z } from './zod.ts'

/**
 * The object schema that also takes other spellings of some fields (the spec's clients send
 * full_name and fullName, subscription_plan and plan): each alias is renamed before validation.
 */
export function withInputAliases<T extends z.ZodType>(aliases: Record<string, string>, schema: T) {
  return z.preprocess(
    (value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([key, field]) => [aliases[key] ?? key, field]))
        : value,
    schema,
  )
}
