import { describe, expect, it } from 'vitest'
import { checkTemplateSteps, previewSteps } from '#common/template-steps.ts'
import { TEMPLATE_CATEGORIES, templateCreateSchema } from '#common/templates.ts'
import { SEED_TEMPLATES } from './seed-templates.ts'

describe('the seeded templates', () => {
  it('are at least eight published ones, over every kind of task, with unique slugs', () => {
    const published = SEED_TEMPLATES.filter((template) => template.published)
    expect(published.length).toBeGreaterThanOrEqual(8)
    expect(new Set(published.map((template) => template.category))).toEqual(new Set(TEMPLATE_CATEGORIES))
    expect(new Set(SEED_TEMPLATES.map((template) => template.slug)).size).toBe(SEED_TEMPLATES.length)
    expect(SEED_TEMPLATES.some((template) => template.advanced)).toBe(true)
  })

  it.each(SEED_TEMPLATES.map((template) => [template.slug, template] as const))(
    '%s is valid as stored, with its address an input',
    (_slug, template) => {
      const { slug: _ignored, ...fields } = template
      const parsed = templateCreateSchema.parse(fields)
      expect(parsed.inputs).toEqual(template.inputs)
      // Stored as written: the check keeps every field (nothing it would drop or change).
      expect(checkTemplateSteps(template.steps, template.inputs)).toEqual({ ok: true, steps: template.steps })
      expect(template.steps[0]).toEqual({ type: 'navigate', url: '{{start_url}}' })
      expect(previewSteps(template.steps, template.inputs)).toHaveLength(template.steps.length)
    },
  )

  it('name elements as people see them: CSS is never the first way', () => {
    const firstWays = SEED_TEMPLATES.flatMap((template) =>
      template.steps.flatMap((step) => (Array.isArray(step.target) ? [(step.target as { by: string }[])[0]?.by] : [])),
    )
    expect(firstWays.length).toBeGreaterThan(20)
    expect(firstWays.filter((by) => by === 'css' || by === 'xpath')).toEqual([])
  })
})
