/** Company facts shown across the public site. Defaults here; the server overrides them from env. */
export interface SiteConfig {
  companyName: string
  foundedYear: number
  contactEmail: string
  supportEmail: string
  supportHours: string
  founder: { name: string; role: string; bio: string; yearsOfExperience: number }
  links: {
    extension: string
    freelancerProfile: string
    scraperStore: string
    twitter: string
    linkedin: string
    github: string
  }
  services: { hourlyRateUsd: number; satisfiedClients: number; rating: number; reviewCount: number }
  /** 'Last updated' of each policy page, as ISO dates. */
  policyDates: { terms: string; privacy: string; cookies: string; acceptableUse: string }
  /** Google Analytics measurement id; analytics cookies exist only when this is set and accepted. */
  analyticsId: string | null
}

export const defaultSiteConfig: SiteConfig = {
  companyName: 'Aether',
  foundedYear: 2022,
  contactEmail: 'hello@aether.test',
  supportEmail: 'support@aether.test',
  supportHours: 'Monday - Friday: 9am - 5pm CET',
  founder: {
    name: 'Alex Morgan',
    role: 'Founder & Lead Engineer',
    bio: 'Alex has spent over 10 years building automation, scraping and workflow tools for businesses of every size, and started Aether to put that power into everyone’s browser.',
    yearsOfExperience: 10,
  },
  links: {
    // Our own page with the built extension to load unpacked, until a store listing is configured (EXTENSION_URL).
    extension: '/extension',
    freelancerProfile: 'https://www.upwork.com/',
    scraperStore: 'https://apify.com/store',
    twitter: 'https://x.com/',
    linkedin: 'https://www.linkedin.com/',
    github: 'https://github.com/',
  },
  services: { hourlyRateUsd: 35, satisfiedClients: 140, rating: 4.8, reviewCount: 148 },
  policyDates: { terms: '2026-01-15', privacy: '2026-01-15', cookies: '2026-01-15', acceptableUse: '2026-01-15' },
  analyticsId: null,
}
