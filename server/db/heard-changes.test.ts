import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '#server/testing/test-database.ts'
import type { Database } from './client.ts'
import { changeCounter } from './heard-changes.ts'
import { appSettings, blogPosts, mailOutbox } from './schema/index.ts'

describe('changeCounter', () => {
  it('knows nothing until a connection listens; then counts each change, and each start or end of listening', () => {
    const counter = changeCounter()
    expect(counter.seen()).toBeNull()
    counter.listening(true)
    const first = counter.seen()
    expect(first).not.toBeNull()
    counter.changed()
    expect(counter.seen()).toBe(first! + 1)
    counter.listening(false)
    expect(counter.seen()).toBeNull()
    counter.changed()
    counter.listening(true)
    // What changed while nobody listened is one more change: no kept page made before survives it.
    expect(counter.seen()).toBeGreaterThan(first! + 1)
  })
})

describe('changes of public content, as the database announces them', () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
    // PostgreSQL: the listening connection starts beside the pool.
    for (let i = 0; i < 100 && database.contentChanges.seen() === null; i++) await new Promise((resolve) => setTimeout(resolve, 50))
  })
  afterAll(async () => {
    await database.close()
  })
  const seen = () => {
    const value = database.contentChanges.seen()
    if (value === null) throw new Error('no connection listens')
    return value
  }

  it('are heard by this process before the statement that committed one returns, in a transaction or not', async () => {
    const before = seen()
    await database.db.update(appSettings).set({ siteName: sql`${appSettings.siteName}` })
    const afterStatement = seen()
    expect(afterStatement).toBeGreaterThan(before)
    await database.db.transaction(async (tx) => {
      await tx
        .update(blogPosts)
        .set({ title: sql`${blogPosts.title}` })
        .where(sql`false`)
    })
    expect(seen()).toBeGreaterThan(afterStatement)
  })

  it('are not announced for other tables, nor for a change rolled back', async () => {
    // On PostgreSQL a change is heard on each listening connection: let the last ones arrive.
    let before = seen()
    for (let quiet = 0; quiet < 5;) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      quiet = seen() === before ? quiet + 1 : 0
      before = seen()
    }
    await database.db.insert(mailOutbox).values({ to: 'someone@example.com', subject: 'Hello', text: 'Hi', status: 'logged' })
    await database.db
      .transaction(async (tx) => {
        await tx.update(appSettings).set({ siteName: sql`${appSettings.siteName}` })
        tx.rollback()
      })
      .catch(() => {})
    expect(seen()).toBe(before)
  })

  const serverUrl = process.env.TEST_DATABASE_URL
  it.runIf(serverUrl)("reach this process from another one's connection (PostgreSQL)", async () => {
    const before = seen()
    const other = new pg.Client({ connectionString: database.location })
    await other.connect()
    try {
      await other.query('update app_settings set site_name = site_name')
    } finally {
      await other.end()
    }
    for (let i = 0; i < 100 && seen() === before; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(seen()).toBeGreaterThan(before)
  })
})
