import { defaultSiteConfig, type SiteConfig } from '#common/site.ts'
import type { Env } from './env.ts'

export type SiteEnv = Pick<
  Env,
  | 'CONTACT_EMAIL'
  | 'EXTENSION_URL'
  | 'SUPPORT_EMAIL'
  | 'FOUNDER_NAME'
  | 'FREELANCER_PROFILE_URL'
  | 'SCRAPER_STORE_URL'
  | 'SOCIAL_TWITTER_URL'
  | 'SOCIAL_LINKEDIN_URL'
  | 'SOCIAL_GITHUB_URL'
  | 'POLICY_LAST_UPDATED'
  | 'ANALYTICS_ID'
>

/** The site configuration: defaults from common/site.ts, overridden by the environment. */
export function siteConfigFromEnv(env: Partial<SiteEnv>): SiteConfig {
  const base = defaultSiteConfig
  const policyDate = env.POLICY_LAST_UPDATED
  return {
    ...base,
    contactEmail: env.CONTACT_EMAIL ?? base.contactEmail,
    supportEmail: env.SUPPORT_EMAIL ?? base.supportEmail,
    founder: { ...base.founder, name: env.FOUNDER_NAME ?? base.founder.name },
    links: {
      extension: env.EXTENSION_URL ?? base.links.extension,
      freelancerProfile: env.FREELANCER_PROFILE_URL ?? base.links.freelancerProfile,
      scraperStore: env.SCRAPER_STORE_URL ?? base.links.scraperStore,
      twitter: env.SOCIAL_TWITTER_URL ?? base.links.twitter,
      linkedin: env.SOCIAL_LINKEDIN_URL ?? base.links.linkedin,
      github: env.SOCIAL_GITHUB_URL ?? base.links.github,
    },
    policyDates: policyDate ? { terms: policyDate, privacy: policyDate, cookies: policyDate, acceptableUse: policyDate } : base.policyDates,
    analyticsId: env.ANALYTICS_ID ?? null,
  }
}
