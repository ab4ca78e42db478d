import { z } from './zod.ts'
import { HONEYPOT_FIELD, INQUIRY_LIMITS, PROJECT_TYPES } from './inquiry-fields.ts'

const name = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(INQUIRY_LIMITS.name, `Name must be at most ${INQUIRY_LIMITS.name} characters.`)
const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(INQUIRY_LIMITS.email, `Email must be at most ${INQUIRY_LIMITS.email} characters.`)
  .pipe(z.email('Please enter a valid email address.'))
const honeypot = z.string().max(500).optional()

/** The services page form and POST /api/contact. */
export const inquiryInputSchema = z.object({
  name,
  email,
  projectType: z.enum(PROJECT_TYPES, { error: 'Choose a project type' }).default('data-scraping'),
  message: z
    .string({ error: 'Project details are required' })
    .trim()
    .min(1, 'Project details are required')
    .max(INQUIRY_LIMITS.message, `Project details must be at most ${INQUIRY_LIMITS.message} characters.`),
  [HONEYPOT_FIELD]: honeypot,
})
export type InquiryInput = z.infer<typeof inquiryInputSchema>

/** The contact page form: stored as an inquiry of type 'other'. */
export const contactMessageSchema = z.object({
  name,
  email,
  subject: z.string().trim().max(INQUIRY_LIMITS.subject, `Subject must be at most ${INQUIRY_LIMITS.subject} characters.`).optional(),
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(INQUIRY_LIMITS.message, `Message must be at most ${INQUIRY_LIMITS.message} characters.`),
  [HONEYPOT_FIELD]: honeypot,
})
export type ContactMessageInput = z.infer<typeof contactMessageSchema>

export const inquiryUpdateSchema = z.object({ processed: z.boolean({ error: 'processed must be true or false' }) })
