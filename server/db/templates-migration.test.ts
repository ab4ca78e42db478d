import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0011 adds the template gallery and the plans' advanced_templates: a database whose
// plans were seeded before it gets "Advanced workflow templates" for Business only, as sold.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0011_automation_templates')
})
afterEach(async () => {
  await database.close()
})

describe('migration 0011 (automation templates)', () => {
  it('gives Business the advanced templates, and no other plan', async () => {
    await database.client.query(
      `insert into subscription_plans (name, slug) values ('Free', 'free'), ('Pro', 'pro'), ('Business', 'business'), ('Custom', 'custom')`,
    )
    await database.migrateRest()
    const plans = await database.client.query<{ slug: string; advanced_templates: boolean }>(
      'select slug, advanced_templates from subscription_plans order by slug',
    )
    expect(plans.rows).toEqual([
      { slug: 'business', advanced_templates: true },
      { slug: 'custom', advanced_templates: false },
      { slug: 'free', advanced_templates: false },
      { slug: 'pro', advanced_templates: false },
    ])
    // The gallery starts empty (the seed fills it) and knows only its categories.
    expect((await database.client.query('select count(*)::int as n from automation_templates')).rows).toEqual([{ n: 0 }])
    await expect(
      database.client.query(`insert into automation_templates (name, slug, category, steps) values ('x', 'x', 'other', '[]')`),
    ).rejects.toMatchObject({ code: '23514' })
  })
})
