import { z } from '@hono/zod-openapi'

// The spec's clients read both spellings of some fields (subscription_plan and subscriptionPlan,
// published_at and publishedAt), so those API answers carry both: the camelCase field and its
// snake_case twin with the same value.

type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S

type Twins<T, K extends keyof T & string> = { [P in K as SnakeCase<P>]: T[P] }

/** Field names are a fixed few, and every answer of a list asks for them again. */
const snakeNames = new Map<string, string>()
function snakeCase(key: string): string {
  let name = snakeNames.get(key)
  if (name === undefined) snakeNames.set(key, (name = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)))
  return name
}

/** The object schema with a snake_case twin of each named field. */
export function withSnakeCaseTwins<S extends z.ZodRawShape, K extends keyof S & string>(shape: S, keys: readonly K[]) {
  const twins = Object.fromEntries(keys.map((key) => [snakeCase(key), shape[key]])) as Twins<S, K>
  return z.object({ ...shape, ...twins })
}

/** The value with the snake_case twin of each named field filled in. */
export function addSnakeCaseTwins<T extends object, K extends keyof T & string>(value: T, keys: readonly K[]): T & Twins<T, K> {
  const withTwins: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  for (const key of keys) withTwins[snakeCase(key)] = value[key]
  return withTwins as T & Twins<T, K>
}
