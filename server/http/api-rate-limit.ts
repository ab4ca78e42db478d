import { createMiddleware } from 'hono/factory'
import { RateLimited } from '#common/errors.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { SettingsService } from '#server/features/settings/settings.service.ts'
import type { AppEnv } from './app-env.ts'

/** The admin's apiRateLimit setting: requests per minute per client (user, else address). */
export function apiRateLimit(rateLimits: RateLimitService, settings: SettingsService) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const { apiRateLimit: limit } = await settings.get()
    const user = c.get('user')
    const key = user ? `api:user:${user.id}` : `api:ip:${c.get('clientIp')}`
    const result = await rateLimits.hit(key, { limit, windowSeconds: 60, message: '' })
    c.header('X-RateLimit-Limit', String(limit))
    c.header('X-RateLimit-Remaining', String(result.remaining))
    if (result.count > limit) {
      throw new RateLimited(
        `Too many requests: the limit is ${limit} per minute. Please retry in ${result.resetSeconds} seconds.`,
        result.resetSeconds,
      )
    }
    await next()
  })
}
