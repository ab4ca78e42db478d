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
import { createInquiryService } from './features/inquiries/inquiry.service.ts'
import { createMailer } from './features/mail/mailer.ts'
import { createBlogService } from './features/blog/blog.service.ts'
import { siteConfigFromEnv, type SiteEnv } from './site-config.ts'

export type ServicesEnv = Pick<
  Env,
  'PUBLIC_URL' | 'isProduction' | 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'googleEnabled' | 'MAIL_FROM'
> &
  Partial<Pick<Env, 'SMTP_URL' | 'OWNER_EMAIL'>> &
  Partial<SiteEnv>

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
  const site = siteConfigFromEnv(env)
  const mailer = createMailer({ db, logger, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM })
  const inquiries = createInquiryService({
    db,
    mailer,
    rateLimits,
    ownerEmail: env.OWNER_EMAIL ?? site.contactEmail,
    publicUrl: env.PUBLIC_URL,
  })
  const features = { googleSignIn: env.googleEnabled }
  return { auth, betterAuth, settings, profiles, rateLimits, plans, users, inquiries, mailer, site, features, blog: createBlogService(db) }
}

export type Services = ReturnType<typeof createServices>
