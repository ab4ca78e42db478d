import { Cookie, FileText, Scale, Shield, type LucideIcon } from 'lucide-react'

export interface LegalDocument {
  title: string
  description: string
  path: string
  icon: LucideIcon
}

/** The four cards on /legal. */
export const LEGAL_DOCUMENTS: LegalDocument[] = [
  {
    title: 'Terms of Service',
    description: 'The agreement for using Aether: accounts, subscriptions, billing, refunds and liability.',
    path: '/terms',
    icon: FileText,
  },
  {
    title: 'Privacy Policy',
    description: 'What personal data we collect, why we collect it, how we protect it and the rights you have.',
    path: '/privacy',
    icon: Shield,
  },
  {
    title: 'Cookie Policy',
    description: 'Which cookies we use, what each one does, how long it lasts and how to change your choice.',
    path: '/cookies',
    icon: Cookie,
  },
  {
    title: 'Acceptable Use Policy',
    description: 'What you may and may not do with Aether and its automations, and how to report misuse.',
    path: '/acceptable-use',
    icon: Scale,
  },
]
