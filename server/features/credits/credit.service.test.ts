import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creditLedger, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { InsufficientCredits } from './credit.service.ts'

/** PGlite runs one transaction at a time; only a server interleaves two. */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL)

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

async function balance(userId: string) {
  const [row] = await t.db.select({ credits: workspaces.credits }).from(workspaces).where(eq(workspaces.id, userId))
  return row?.credits
}

async function ledger(userId: string) {
  return t.db.select().from(creditLedger).where(eq(creditLedger.workspaceId, userId))
}

describe('credit ledger', () => {
  it('a new account gets the default credits through a signup ledger row', async () => {
    const user = await t.signUp()
    expect(await balance(user.id)).toBe(5)
    const rows = await ledger(user.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ delta: 5, balanceAfter: 5, reason: 'signup' })
  })

  it('every change writes a row with the balance after it', async () => {
    const user = await t.signUp()
    expect(await t.services.credits.change({ workspaceId: user.id, delta: 100, reason: 'plan_grant', reference: 'txn_1' })).toBe(105)
    expect(await t.services.credits.change({ workspaceId: user.id, delta: -30, reason: 'usage', reference: 'run_1' })).toBe(75)
    const rows = (await ledger(user.id)).sort((a, b) => a.balanceAfter - b.balanceAfter)
    expect(rows.map((row) => [row.reason, row.delta, row.balanceAfter])).toEqual([
      ['signup', 5, 5],
      ['usage', -30, 75],
      ['plan_grant', 100, 105],
    ])
    const recent = await t.services.credits.recent(user.id, 2)
    expect(recent.map((row) => row.reason)).toEqual(['usage', 'plan_grant'])
  })

  it('refuses a change that would go below zero, and records nothing', async () => {
    const user = await t.signUp()
    await expect(t.services.credits.change({ workspaceId: user.id, delta: -6, reason: 'usage' })).rejects.toBeInstanceOf(
      InsufficientCredits,
    )
    expect(await balance(user.id)).toBe(5)
    expect(await ledger(user.id)).toHaveLength(1)
  })

  it('an admin edit sets the balance and records the difference with the admin as actor', async () => {
    const user = await t.signUp()
    const admin = await t.signUp({ role: 'admin' })
    expect(await t.services.credits.setBalance(user.id, 42, { actorId: admin.id })).toBe(42)
    expect(await t.services.credits.setBalance(user.id, 0, { actorId: admin.id })).toBe(0)
    const edits = (await ledger(user.id)).filter((row) => row.reason === 'admin_edit')
    expect(edits.map((row) => row.delta).sort((a, b) => a - b)).toEqual([-42, 37])
    expect(edits.every((row) => row.actorId === admin.id)).toBe(true)
  })

  it('concurrent grants and charges keep the balance equal to the sum of the ledger', async () => {
    const user = await t.signUp()
    const grants = Array.from({ length: 20 }, (_, index) =>
      t.services.credits.change({ workspaceId: user.id, delta: 10, reason: 'plan_grant', reference: `txn_${index}` }),
    )
    // More charges than the balance can ever cover: some must be refused, none may overdraw.
    const charges = Array.from({ length: 30 }, (_, index) =>
      t.services.credits
        .change({ workspaceId: user.id, delta: -10, reason: 'usage', reference: `run_${index}` })
        .catch((error: unknown) => {
          if (error instanceof InsufficientCredits) return null
          throw error
        }),
    )
    await Promise.all([...grants, ...charges])
    const rows = await ledger(user.id)
    const sum = rows.reduce((total, row) => total + row.delta, 0)
    const final = await balance(user.id)
    expect(final).toBe(sum)
    expect(final).toBeGreaterThanOrEqual(0)
    expect(rows.filter((row) => row.reason === 'plan_grant')).toHaveLength(20)
    expect(rows.every((row) => row.balanceAfter >= 0)).toBe(true)
  })

  it.runIf(onPostgres)('orders the ledger by when each change was made, not when its transaction began', async () => {
    const user = await t.signUp()
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const early = t.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
      await held
      return t.services.credits.applyIn(tx, { workspaceId: user.id, delta: -1, reason: 'usage', reference: 'began first' })
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await t.services.credits.change({ workspaceId: user.id, delta: -2, reason: 'usage', reference: 'began second' })).toBe(3)
    release()
    expect(await early).toBe(2)
    const [newest] = await t.services.credits.recent(user.id, 1)
    expect(newest).toMatchObject({ reference: 'began first', balanceAfter: 2 })
  })
})
