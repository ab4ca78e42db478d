/**
 * JSON with object keys sorted: steps read back from jsonb come with their keys in jsonb's order,
 * so two equal steps may serialise differently with JSON.stringify alone.
 */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  )
}
