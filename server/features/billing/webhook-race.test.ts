import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '#server/db/client.ts'
import { creditLedger, payments, profiles, workspaces } from '#server/db/schema/index.ts'
import type { DbOrTx } from '#server/db/client.ts'
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '#server/testing/create-test-app.ts'
import { checkoutUserToken } from './checkout-token.ts'
import { signPaddleBody } from './paddle-signature.ts'
import { createWebhookService } from './webhook.service.ts'
import { profileColumns } from '#server/db/profile-columns.ts'

// PGlite runs one transaction at a time, so the race is staged: another event's payment row is
// committed between this event's start and its write to payments, which PostgreSQL allows when
// transaction.billed and transaction.completed for one transaction arrive together.

const SECRET = 'pdl_ntfset_race_secret'
let t: TestApp
let seq = 0

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

/** Holds a query builder back until `first` has run, however the caller chains and awaits it. */
function after<T extends object>(builder: T, first: () => Promise<void>): T {
  return new Proxy(builder, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key)
      if (typeof value !== 'function') return value
      if (key === 'then') {
        return (resolve: (value: unknown) => void, reject: (error: unknown) => void) =>
          first().then(() => value.call(target, resolve, reject), reject)
      }
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args)
        return typeof result === 'object' && result !== null ? after(result, first) : result
      }
    },
  })
}

/** The database, with `meanwhile` run (once) inside the transaction just before its first write to payments. */
function committedMeanwhile(db: Db, meanwhile: (tx: DbOrTx) => Promise<unknown>): Db {
  let pending = true
  const staged = (tx: DbOrTx) =>
    new Proxy(tx, {
      get(target, key) {
        if (key !== 'insert') return Reflect.get(target, key)
        return (table: Parameters<DbOrTx['insert']>[0]) => {
          const builder = target.insert(table)
          if (table !== payments || !pending) return builder
          return after(builder, async () => {
            if (!pending) return
            pending = false
            await meanwhile(target)
          })
        }
      },
    })
  return new Proxy(db, {
    get(target, key) {
      if (key !== 'transaction') return Reflect.get(target, key)
      return (run: (tx: DbOrTx) => Promise<unknown>, config?: Parameters<Db['transaction']>[1]) =>
        target.transaction((tx) => run(staged(tx)), config)
    },
  })
}

async function receive(db: Db, type: string, data: Record<string, unknown>) {
  const webhooks = createWebhookService({
    db,
    credits: t.services.credits,
    activity: t.services.audit,
    logger: pino({ level: 'silent' }),
    provider: 'paddle',
    secret: SECRET,
    checkoutSecret: TEST_AUTH_SECRET,
  })
  const raw = JSON.stringify({ event_id: `evt_race_${++seq}`, event_type: type, occurred_at: new Date().toISOString(), data })
  return webhooks.receive(raw, signPaddleBody(raw, SECRET))
}

function transaction(userId: string, id: string) {
  const now = new Date().toISOString()
  return {
    id,
    status: 'completed',
    origin: 'web',
    currency_code: 'USD',
    custom_data: { user_id: userId, plan: 'pro', user_token: checkoutUserToken(TEST_AUTH_SECRET, userId) },
    items: [{ price: { id: 'pro-monthly-plan' }, quantity: 1 }],
    details: { totals: { grand_total: '2900' } },
    payments: [],
    billed_at: now,
    created_at: now,
  }
}

async function state(userId: string) {
  const [profile] = await t.db
    .select(profileColumns)
    .from(profiles)
    .innerJoin(workspaces, eq(workspaces.id, profiles.id))
    .where(eq(profiles.id, userId))
  const grants = await t.db.select().from(creditLedger).where(eq(creditLedger.workspaceId, userId))
  const paid = await t.db.select().from(payments).where(eq(payments.workspaceId, userId))
  return { credits: profile?.credits, grants: grants.filter((row) => row.reason === 'plan_grant'), payments: paid }
}

describe('transaction.billed and transaction.completed for one transaction, racing', () => {
  const row = (userId: string, id: string, status: 'pending' | 'success') => ({
    workspaceId: userId,
    providerTransactionId: id,
    planSlug: 'pro',
    amount: 29,
    currency: 'USD',
    status,
  })

  it('completed, after billed committed its row meanwhile: no 500, the row is paid, credits granted once', async () => {
    const user = await t.signUp()
    const id = `txn_race_${++seq}`
    let staged = false
    const db = committedMeanwhile(t.db, async (tx) => {
      staged = true
      await tx.insert(payments).values(row(user.id, id, 'pending'))
    })
    const result = await receive(db, 'transaction.completed', transaction(user.id, id))
    expect(staged).toBe(true)
    expect(result).toMatchObject({ status: 200, outcome: 'applied' })
    const now = await state(user.id)
    expect(now.payments).toMatchObject([{ status: 'success', amount: 29 }])
    expect(now.grants).toHaveLength(1)
    expect(now.credits).toBe(1005)
  })

  it('billed, after completed committed its row and grant meanwhile: no 500, the row stays paid, nothing more granted', async () => {
    const user = await t.signUp()
    const id = `txn_race_${++seq}`
    let staged = false
    const db = committedMeanwhile(t.db, async (tx) => {
      staged = true
      await tx.insert(payments).values(row(user.id, id, 'success'))
      await t.services.credits.applyIn(tx, { workspaceId: user.id, delta: 1000, reason: 'plan_grant', reference: id })
    })
    const result = await receive(db, 'transaction.billed', { ...transaction(user.id, id), status: 'billed' })
    expect(staged).toBe(true)
    expect(result).toMatchObject({ status: 200, outcome: 'ignored' })
    const now = await state(user.id)
    expect(now.payments).toMatchObject([{ status: 'success', amount: 29 }])
    expect(now.grants).toHaveLength(1)
    expect(now.credits).toBe(1005)
  })
})
