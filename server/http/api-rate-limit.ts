import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { RateLimited } from '#common/errors.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { SettingsService } from '#server/features/settings/settings.service.ts'
import type { AppEnv } from './app-env.ts'

const WINDOW_SECONDS = 60

/**
 * The admin's apiRateLimit setting: requests per minute per client (user, else address). Every
 * answer says where the client stands, in the IETF draft's RateLimit-* headers and the older
 * X-RateLimit-* ones that existing clients read.
 */
export function apiRateLimit(rateLimits: RateLimitService, settings: Pick<SettingsService, 'get'>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get('user')
    const counted = await countApiCall(rateLimits, settings, user ? apiCallerKey(user.id) : `api:ip:${c.get('clientIp')}`)
    setRateLimitHeaders(c, counted)
    if (counted.refusal) throw counted.refusal
    await next()
  })
}

/** The counter of a signed-in member's API calls, whatever credential they call with. */
export const apiCallerKey = (userId: string) => `api:user:${userId}`

/**
 * Counts one API call of a client against the apiRateLimit setting (a request, or one call inside
 * a request such as an MCP tool's): where the client stands, and the refusal when it is over.
 */
export async function countApiCall(rateLimits: RateLimitService, settings: Pick<SettingsService, 'get'>, key: string) {
  const { apiRateLimit: limit } = await settings.get()
  const result = await rateLimits.hitEveryRequest(key, { limit, windowSeconds: WINDOW_SECONDS, message: '' })
  const refusal =
    result.count > limit
      ? new RateLimited(
          `Too many requests: the limit is ${limit} per minute. Please retry in ${result.resetSeconds} seconds.`,
          result.resetSeconds,
        )
      : null
  return { limit, windowSeconds: WINDOW_SECONDS, remaining: result.remaining, resetSeconds: result.resetSeconds, refusal }
}

/**
 * Where the client stands against one limit. A refusal by a narrower limit (sign-ins, inquiries)
 * replaces the general limit's figures, so the headers describe the limit that refused.
 */
export function setRateLimitHeaders(c: Context, state: { limit: number; windowSeconds: number; remaining: number; resetSeconds: number }) {
  c.header('X-RateLimit-Limit', String(state.limit))
  c.header('X-RateLimit-Remaining', String(state.remaining))
  c.header('RateLimit-Limit', String(state.limit))
  c.header('RateLimit-Remaining', String(state.remaining))
  c.header('RateLimit-Reset', String(state.resetSeconds))
  c.header('RateLimit-Policy', `${state.limit};w=${state.windowSeconds}`)
}
