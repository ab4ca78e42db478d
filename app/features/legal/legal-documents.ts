import { Cookie, FileText, Scale, Shield, type LucideIcon } from 'lucide-react'

import type { SiteConfig } from '#common/site.ts'

export interface LegalDocument {
  title: string
  /** What the card on /legal says. */
  description: string
  path: string
  icon: LucideIcon
  /** The "Last updated" date's key in the site configuration. */
  dateKey: keyof SiteConfig['policyDates']
  /** The page's meta description and keywords. */
  seo: { description: string; keywords: string[] }
}

/** The four policies: the cards on /legal, and each policy's page (routes/legal-document.tsx). */
export const LEGAL_DOCUMENTS: LegalDocument[] = [
  {
    title: 'Terms of Service',
    description: 'The agreement for using Aether: accounts, subscriptions, billing, refunds and liability.',
    path: '/terms',
    icon: FileText,
    dateKey: 'terms',
    seo: {
      description:
        'Aether Terms of Service: accounts, subscriptions and billing, the 14-day free trial, the 30-day money-back guarantee, refunds and liability.',
      keywords: ['terms of service', 'Aether terms', 'refund policy', 'money-back guarantee', 'subscription billing'],
    },
  },
  {
    title: 'Privacy Policy',
    description: 'What personal data we collect, why we collect it, how we protect it and the rights you have.',
    path: '/privacy',
    icon: Shield,
    dateKey: 'privacy',
    seo: {
      description: 'How Aether collects, uses, protects and retains your personal data, and how to use your rights under the GDPR.',
      keywords: ['privacy policy', 'Aether privacy', 'personal data', 'GDPR', 'data security'],
    },
  },
  {
    title: 'Cookie Policy',
    description: 'Which cookies we use, what each one does, how long it lasts and how to change your choice.',
    path: '/cookies',
    icon: Cookie,
    dateKey: 'cookies',
    seo: {
      description: 'The cookies Aether uses, what each one does and how long it lasts, and how to accept or reject analytics cookies.',
      keywords: ['cookie policy', 'Aether cookies', 'analytics cookies', 'cookie consent', 'privacy'],
    },
  },
  {
    title: 'Acceptable Use Policy',
    description: 'What you may and may not do with Aether and its automations, and how to report misuse.',
    path: '/acceptable-use',
    icon: Scale,
    dateKey: 'acceptableUse',
    seo: {
      description:
        'What you may and may not do with Aether and its automations, our content standards, how we enforce them and how to report misuse.',
      keywords: ['acceptable use policy', 'Aether rules', 'automation policy', 'content standards', 'report abuse'],
    },
  },
]
