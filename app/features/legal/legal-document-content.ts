import type { SiteConfig } from '#common/site.ts'
import { ACCEPTABLE_USE_SUMMARY, acceptableUseSections } from './acceptable-use-content.tsx'
import { COOKIES_SUMMARY, cookiesSections } from './cookies-content.tsx'
import type { LegalSection } from './legal-page.tsx'
import { PRIVACY_SUMMARY, privacySections } from './privacy-content.tsx'
import { TERMS_SUMMARY, termsSections } from './terms-content.tsx'

/** Each policy's text, by its path (legal-documents.ts lists the policies). */
export const LEGAL_CONTENT: Record<string, { summary: string; sections: (site: SiteConfig) => LegalSection[] }> = {
  '/terms': { summary: TERMS_SUMMARY, sections: termsSections },
  '/privacy': { summary: PRIVACY_SUMMARY, sections: privacySections },
  '/cookies': { summary: COOKIES_SUMMARY, sections: cookiesSections },
  '/acceptable-use': { summary: ACCEPTABLE_USE_SUMMARY, sections: acceptableUseSections },
}
