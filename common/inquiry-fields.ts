// Inquiry constants without zod, so pages can use them without loading the schema library.

export const PROJECT_TYPES = ['data-scraping', 'process-automation', 'custom-tools', 'other'] as const
export type ProjectType = (typeof PROJECT_TYPES)[number]

export const PROJECT_TYPE_LABELS: Record<ProjectType, string> = {
  'data-scraping': 'Data Scraping',
  'process-automation': 'Process Automation',
  'custom-tools': 'Custom Tools',
  other: 'Other',
}

export const INQUIRY_LIMITS = { name: 120, email: 254, subject: 200, message: 5000 } as const

/** Hidden field that people never see and bots fill in. */
export const HONEYPOT_FIELD = 'website'
