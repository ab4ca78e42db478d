import { ApiError, createAetherClient, type AetherClient } from '#sdk'
import type { z } from '#common/zod.ts'

export { ApiError, serverAddress, TokenRefusedError } from '#sdk'

/** Where this browser stands against the server's API rate limit, as its last answer said (RateLimit-* headers). */
let rateLimit: { remaining: number; until: number } | null = null

/** Keeps what an answer says of the rate limit: how many requests are left, until when. */
export function noteRateLimit(response: Response): void {
  const remaining = response.headers.get('RateLimit-Remaining')
  const reset = response.headers.get('RateLimit-Reset')
  if (remaining === null || reset === null || !Number.isFinite(Number(remaining)) || !Number.isFinite(Number(reset))) return
  rateLimit = { remaining: Number(remaining), until: Date.now() + Number(reset) * 1000 }
}

/** Requests left in the rate limit's current window; null when no answer in this window said. */
export function requestsLeft(now = Date.now()): number | null {
  return rateLimit && now < rateLimit.until ? rateLimit.remaining : null
}

/**
 * The extension's client of its server (the SDK, sdk/README.md): the device's credential as a
 * bearer token when there is one, and every answer's rate limit noted. The device credential is
 * the extension's only credential: the member's session cookie for the site is never sent (the
 * SDK omits cookies, and the server refuses cross-origin requests that carry one).
 */
export function clientOf(server: { serverUrl: string; token?: string }): AetherClient {
  return createAetherClient({ server: server.serverUrl, token: server.token, onAnswer: noteRateLimit })
}

/**
 * An answer read with the schema this extension understands: what it acts on (steps it runs, a
 * schedule from an older server) is checked, not only typed. ApiError when the server answered otherwise.
 */
export function answerOf<T>(schema: z.ZodType<T>, answer: unknown): T {
  const parsed = schema.safeParse(answer)
  if (!parsed.success) throw new ApiError(200, 'UNEXPECTED_ANSWER', 'The server answered in a way this extension does not understand.')
  return parsed.data
}
