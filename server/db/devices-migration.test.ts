import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0017 adds connected devices and their pairings (docs/decisions/031), and each plan's
// devices: a database whose plans were seeded before it gets the pricing texts' numbers (Free 1,
// Pro 3, Business unlimited), a plan of the admin's own 1, and the database refuses fewer than 0.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0017_devices')
})
afterEach(async () => {
  await database.close()
})

describe('migration 0017 (devices)', () => {
  it('gives the seeded plans their devices, and any other plan one', async () => {
    await database.client.query(
      `insert into subscription_plans (name, slug) values ('Free', 'free'), ('Pro', 'pro'), ('Business', 'business'), ('Custom', 'custom')`,
    )
    await database.migrateRest()
    const plans = await database.client.query<{ slug: string; devices: number | null }>(
      'select slug, devices from subscription_plans order by slug',
    )
    expect(plans.rows).toEqual([
      { slug: 'business', devices: null },
      { slug: 'custom', devices: 1 },
      { slug: 'free', devices: 1 },
      { slug: 'pro', devices: 3 },
    ])
    await expect(database.client.query(`update subscription_plans set devices = -1 where slug = 'custom'`)).rejects.toMatchObject({
      code: '23514',
    })
  })

  it('keeps devices and pairings to their kinds, and an approved pairing to a workspace', async () => {
    await database.migrateRest()
    await database.client.query(`insert into subscription_plans (name, slug) values ('Free', 'free')`)
    await database.client.query(`insert into users (id, name, email, email_verified) values ('u-1', 'Ada', 'ada@example.com', true)`)
    await database.client.query(`insert into workspaces (id, name, kind, personal_owner_id) values ('u-1', 'Personal', 'personal', 'u-1')`)
    const device = (kind: string) =>
      database.client.query(
        `insert into devices (workspace_id, user_id, name, kind, version, token_hash) values ('u-1', 'u-1', 'Chrome', $1, '1', $2)`,
        [kind, `hash-${kind}`],
      )
    await device('extension')
    await expect(device('phone')).rejects.toMatchObject({ code: '23514' })
    const pairing = (status: string, workspace: string | null) =>
      database.client.query(
        `insert into device_pairings (user_code, poll_secret_hash, name, kind, version, status, workspace_id, expires_at)
         values ($1, 'h', 'Chrome', 'extension', '1', $2, $3, now() + interval '10 minutes')`,
        [`CODE${status.slice(0, 4).toUpperCase()}`.slice(0, 8), status, workspace],
      )
    await pairing('pending', null)
    await expect(pairing('approved', null)).rejects.toMatchObject({ code: '23514' })
    await pairing('approved', 'u-1')
    const scopes = await database.client.query<{ scopes: string[] }>('select scopes from devices')
    expect(scopes.rows).toEqual([{ scopes: ['automations'] }])
  })
})
