import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0014 adds outgoing webhooks and the plans' webhooks allowance: a database whose plans
// were seeded before it gets 10 endpoints for Business ("Custom integrations") and none elsewhere.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0014_outgoing_webhooks')
})
afterEach(async () => {
  await database.close()
})

describe('migration 0014 (outgoing webhooks)', () => {
  it('gives Business 10 webhook endpoints, and no other plan any', async () => {
    await database.client.query(
      `insert into subscription_plans (name, slug) values ('Free', 'free'), ('Pro', 'pro'), ('Business', 'business'), ('Custom', 'custom')`,
    )
    await database.migrateRest()
    const plans = await database.client.query<{ slug: string; webhooks: number }>(
      'select slug, webhooks from subscription_plans order by slug',
    )
    expect(plans.rows).toEqual([
      { slug: 'business', webhooks: 10 },
      { slug: 'custom', webhooks: 0 },
      { slug: 'free', webhooks: 0 },
      { slug: 'pro', webhooks: 0 },
    ])
    // A negative allowance is refused by the database itself.
    await expect(database.client.query(`update subscription_plans set webhooks = -1 where slug = 'pro'`)).rejects.toMatchObject({
      code: '23514',
    })
  })
})
