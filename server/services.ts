import { createAuth } from './auth.ts'
import type { Db } from './db/client.ts'
import type { Env } from './env.ts'
import type { Logger } from './logger.ts'
import { createAuthService } from './features/auth/auth.service.ts'
import { createPlanService } from './features/plans/plan.service.ts'
import { createProfileService } from './features/profiles/profile.service.ts'
import { createRateLimitService } from './features/rate-limit/rate-limit.service.ts'
import { createSettingsService } from './features/settings/settings.service.ts'
import { createUserService } from './features/users/user.service.ts'

export type ServicesEnv = Pick<Env, 'PUBLIC_URL' | 'isProduction' | 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'googleEnabled' | 'CONTACT_EMAIL' | 'EXTENSION_URL'>

/** Builds every service once; pages (through router context) and the API both use these. */
export function createServices(options: { db: Db; env: ServicesEnv; authSecret: string; logger: Logger }) {
  const { db, env, authSecret, logger } = options
  const settings = createSettingsService(db)
  const profiles = createProfileService(db, settings)
  const rateLimits = createRateLimitService(db)
  const plans = createPlanService(db)
  const users = createUserService(db)
  const betterAuth = createAuth({
    db,
    env,
    secret: authSecret,
    logger,
    hooks: {
      onUserCreated: async (user) => {
        await profiles.createFor(user.id, user.name || null)
      },
    },
  })
  const auth = createAuthService({ auth: betterAuth, db, profiles, rateLimits })
  const site = { contactEmail: env.CONTACT_EMAIL, extensionUrl: env.EXTENSION_URL, googleEnabled: env.googleEnabled }
  return { auth, betterAuth, settings, profiles, rateLimits, plans, users, site }
}

export type Services = ReturnType<typeof createServices>
