import { MAX_STEPS } from './automation-steps.ts'
import { z } from './zod.ts'

/**
 * Automation templates (docs/decisions/022): version-2 steps whose string values may hold named
 * inputs written `{{search_term}}`, filled in by the member who uses the template. This module
 * holds the shapes; template-steps.ts checks, fills and describes the steps.
 */

export const TEMPLATE_CATEGORIES = ['data-entry', 'form-submission', 'site-navigation', 'scraping', 'monitoring'] as const
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number]

export const TEMPLATE_CATEGORY_NAMES: Record<TemplateCategory, string> = {
  'data-entry': 'Data entry',
  'form-submission': 'Form submission',
  'site-navigation': 'Site navigation',
  scraping: 'Scraping',
  monitoring: 'Monitoring',
}

/** The most inputs one template declares, and the longest value a member may give one. */
export const MAX_TEMPLATE_INPUTS = 20
export const MAX_INPUT_VALUE_LENGTH = 500
/** The most steps a template holds (an automation may hold more; a template is a starting point). */
export const MAX_TEMPLATE_STEPS = Math.min(100, MAX_STEPS)
/** The most templates the gallery keeps (a guard, not a plan feature). */
export const MAX_TEMPLATES = 200

/** An input's name as steps write it between double braces: lower-case letters, digits and _. */
export const INPUT_NAME = /^[a-z][a-z0-9_]{0,39}$/

const categorySchema = z.enum(TEMPLATE_CATEGORIES, { error: `Category must be one of ${TEMPLATE_CATEGORIES.join(', ')}.` })

export const templateInputSchema = z.object({
  name: z
    .string({ error: 'Each input needs a name.' })
    .trim()
    .regex(INPUT_NAME, 'An input name is lower-case letters, digits and _, starting with a letter (at most 40), e.g. search_term.'),
  label: z
    .string({ error: 'Each input needs a label.' })
    .trim()
    .min(1, 'Each input needs a label.')
    .max(80, 'A label is at most 80 characters.'),
  /** Shown in the empty field, and used to check the template's steps when it is saved. */
  example: z
    .string({ error: 'Each input needs an example value.' })
    .trim()
    .min(1, 'Each input needs an example value.')
    .max(MAX_INPUT_VALUE_LENGTH, `An example is at most ${MAX_INPUT_VALUE_LENGTH} characters.`),
  /** The field's starting value, and what the input becomes when left blank. */
  defaultValue: z.string().trim().max(MAX_INPUT_VALUE_LENGTH, `A default is at most ${MAX_INPUT_VALUE_LENGTH} characters.`).default(''),
  /** Whether it must have a value; one with a default always has. */
  required: z.boolean({ error: 'required must be true or false' }).default(true),
})
export type TemplateInput = z.output<typeof templateInputSchema>

const inputsSchema = z
  .array(templateInputSchema, { error: 'Inputs must be a list.' })
  .max(MAX_TEMPLATE_INPUTS, `A template has at most ${MAX_TEMPLATE_INPUTS} inputs.`)
  .refine((inputs) => new Set(inputs.map((input) => input.name)).size === inputs.length, 'Two inputs have the same name.')

const templateFields = {
  name: z.string({ error: 'Name is required.' }).trim().min(1, 'Name is required.').max(100, 'Name must be at most 100 characters.'),
  category: categorySchema,
  description: z.string().trim().max(1000, 'Description must be at most 1000 characters.'),
  /** Checked step by step with the example values filled in (checkTemplateSteps). */
  steps: z
    .array(z.unknown(), { error: 'Steps must be a list of actions.' })
    .min(1, 'A template needs at least one step.')
    .max(MAX_TEMPLATE_STEPS, `A template has at most ${MAX_TEMPLATE_STEPS} steps.`),
  inputs: inputsSchema,
  /** Only plans with advanced templates may use it (the plan's `advancedTemplates`). */
  advanced: z.boolean({ error: 'advanced must be true or false' }),
  /** Members see published templates only. */
  published: z.boolean({ error: 'published must be true or false' }),
}

/** A new template as the admin tab or POST /api/templates sends it. */
export const templateCreateSchema = z.object({
  ...templateFields,
  description: templateFields.description.default(''),
  inputs: inputsSchema.default([]),
  advanced: templateFields.advanced.default(false),
  published: templateFields.published.default(false),
})
export type TemplateCreate = z.output<typeof templateCreateSchema>

/** A change: only the fields sent. */
export const templateUpdateSchema = z.object(templateFields).partial()
export type TemplateUpdate = z.output<typeof templateUpdateSchema>

/** 'Use template': the inputs by name, and the new automation's name (the template's when unset). */
export const templateUseSchema = z.object({
  inputs: z
    .record(
      z.string().max(40),
      z
        .string({ error: 'Each input is a text value.' })
        .max(MAX_INPUT_VALUE_LENGTH, `Each input is at most ${MAX_INPUT_VALUE_LENGTH} characters.`),
    )
    .refine((inputs) => Object.keys(inputs).length <= MAX_TEMPLATE_INPUTS, `At most ${MAX_TEMPLATE_INPUTS} inputs.`)
    .default({}),
  name: z
    .string()
    .trim()
    .max(100, 'Name must be at most 100 characters.')
    .optional()
    .transform((value) => value || undefined),
})
export type TemplateUse = z.output<typeof templateUseSchema>

export const templateListQuerySchema = z.object({
  category: categorySchema.optional(),
})
