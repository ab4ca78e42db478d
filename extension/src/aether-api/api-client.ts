import type { z } from '#common/zod.ts'

/** The server answered with an error ({ message, code }, docs/decisions/005), or could not be reached (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message)
  }
}

/** The server refused the device's credential (401): it was revoked on the website. */
export class DeviceDisconnectedError extends ApiError {}

/** A server address as the extension keeps it: http(s), without a trailing slash; null when it is not one. */
export function serverAddress(input: string): string | null {
  const text = input.trim()
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text)) return null
  const url = new URL(text)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

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
 * One request to the Aether API: JSON in and out, the device's credential as a bearer token when
 * there is one, the answer checked against its schema. Errors are ApiError with the server's
 * message; a refused credential is DeviceDisconnectedError.
 */
export async function callApi<T>(
  server: { serverUrl: string; token?: string },
  path: string,
  schema: z.ZodType<T>,
  init: { method?: 'GET' | 'POST' | 'DELETE'; body?: unknown } = {},
): Promise<{ status: number; data: T }> {
  let response: Response
  try {
    response = await fetch(`${server.serverUrl}${path}`, {
      method: init.method ?? 'GET',
      // The device credential is the extension's only credential: the member's session cookie for
      // the site is never sent (and the server refuses cross-origin requests that carry one).
      credentials: 'omit',
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(server.token ? { authorization: `Bearer ${server.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
  } catch {
    throw new ApiError(0, undefined, `Could not reach the Aether server at ${server.serverUrl}.`)
  }
  noteRateLimit(response)
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const { message, code } = (body ?? {}) as { message?: unknown; code?: unknown }
    const text = typeof message === 'string' ? message : `The server answered ${response.status}.`
    const error = typeof code === 'string' ? code : undefined
    if (response.status === 401 && server.token) throw new DeviceDisconnectedError(401, error, text)
    throw new ApiError(response.status, error, text)
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success)
    throw new ApiError(response.status, 'UNEXPECTED_ANSWER', 'The server answered in a way this extension does not understand.')
  return { status: response.status, data: parsed.data }
}
