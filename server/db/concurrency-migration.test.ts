import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0016 gives each plan its cloud runs at once (docs/decisions/029): a database whose plans
// were seeded before it gets the seed's numbers (Free 1, Pro 2, Business 5), a plan of the admin's
// own gets 1 until the admin raises it, and the database refuses fewer than 1.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0016_run_limits_and_cloud_concurrency')
})
afterEach(async () => {
  await database.close()
})

describe('migration 0016 (cloud concurrency per plan)', () => {
  it('gives the seeded plans their cloud runs at once, and any other plan one', async () => {
    await database.client.query(
      `insert into subscription_plans (name, slug) values ('Free', 'free'), ('Pro', 'pro'), ('Business', 'business'), ('Custom', 'custom')`,
    )
    await database.migrateRest()
    const plans = await database.client.query<{ slug: string; cloud_concurrency: number }>(
      'select slug, cloud_concurrency from subscription_plans order by slug',
    )
    expect(plans.rows).toEqual([
      { slug: 'business', cloud_concurrency: 5 },
      { slug: 'custom', cloud_concurrency: 1 },
      { slug: 'free', cloud_concurrency: 1 },
      { slug: 'pro', cloud_concurrency: 2 },
    ])
    for (const value of [0, -1]) {
      await expect(
        database.client.query(`update subscription_plans set cloud_concurrency = $1 where slug = 'custom'`, [value]),
      ).rejects.toMatchObject({ code: '23514' })
    }
    await expect(
      database.client.query(`update subscription_plans set cloud_concurrency = null where slug = 'custom'`),
    ).rejects.toMatchObject({
      code: '23502',
    })
  })
})
