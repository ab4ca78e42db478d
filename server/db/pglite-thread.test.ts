import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { integer, pgTable, text } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isDatabaseUnavailable, isUniqueViolation } from './errors.ts'
import { asPglite, startPgliteThread, type PgliteThread } from './pglite-thread.ts'

// PGlite in its own thread (docs/decisions/034): what Drizzle and our code rely on from PGlite
// must hold across the thread boundary: values and their types, PostgreSQL's error fields,
// transactions (commit, rollback, savepoints, and other queries waiting for them), the settings
// it starts with, and a data folder that keeps what was written.

const notes = pgTable('notes', { id: integer('id').primaryKey(), body: text('body').notNull() })

describe('PGlite in a worker thread', () => {
  let thread: PgliteThread
  beforeAll(async () => {
    thread = await startPgliteThread({ settings: { shared_buffers: '16MB', work_mem: '2MB' } })
    await thread.exec('create table notes (id integer primary key, body text not null)')
  })
  afterAll(() => thread.close())

  it('answers with PGlite’s values: dates, JSON, big integers, bytes, booleans and nulls', async () => {
    const { rows, fields } = await thread.query<Record<string, unknown>>(
      `select '2026-01-02T03:04:05Z'::timestamptz as at, '{"a":[1,2]}'::jsonb as doc, 9007199254740993::int8 as big,
              '\\x0102'::bytea as bytes, true as yes, null::text as nothing, $1::text as param`,
      ['given'],
    )
    expect(rows).toEqual([
      {
        at: new Date('2026-01-02T03:04:05Z'),
        doc: { a: [1, 2] },
        big: 9007199254740993n,
        bytes: new Uint8Array([1, 2]),
        yes: true,
        nothing: null,
        param: 'given',
      },
    ])
    expect(fields.map((field) => field.name)).toEqual(['at', 'doc', 'big', 'bytes', 'yes', 'nothing', 'param'])
  })

  it('runs the caller’s parsers on its side, in array and object rows', async () => {
    const parsers = { 1184: (value: string) => `parsed ${value}` }
    const array = await thread.query(`select '2026-01-02T03:04:05Z'::timestamptz as at, 1 as n`, [], { rowMode: 'array', parsers })
    expect(array.rows).toEqual([['parsed 2026-01-02 03:04:05+00', 1]])
    const object = await thread.query(`select null::timestamptz as at`, [], { parsers })
    expect(object.rows).toEqual([{ at: null }])
  })

  it('starts PostgreSQL with the settings it was given', async () => {
    const { rows } = await thread.query<{ name: string; setting: string }>(
      `select name, setting from pg_settings where name in ('shared_buffers', 'work_mem') order by name`,
    )
    // shared_buffers in 8 kB pages, work_mem in kB.
    expect(rows).toEqual([
      { name: 'shared_buffers', setting: '2048' },
      { name: 'work_mem', setting: '2048' },
    ])
  })

  it('keeps PostgreSQL’s error fields, so unique violations are recognised through Drizzle', async () => {
    const db = drizzle({ client: asPglite(thread) })
    await db.insert(notes).values({ id: 1, body: 'first' })
    const error = await db
      .insert(notes)
      .values({ id: 1, body: 'again' })
      .then(
        () => null,
        (caught: unknown) => caught,
      )
    expect(isUniqueViolation(error)).toBe(true)
    expect((error as { cause: { constraint: string } }).cause.constraint).toBe('notes_pkey')
  })

  it('commits a transaction, rolls back a failed one, and keeps savepoints of nested ones', async () => {
    const db = drizzle({ client: asPglite(thread) })
    await db.transaction(async (tx) => {
      await tx.insert(notes).values({ id: 10, body: 'kept' })
      await tx
        .transaction(async (inner) => {
          await inner.insert(notes).values({ id: 11, body: 'savepoint rolled back' })
          throw new Error('inner fails')
        })
        .catch(() => {})
    })
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(notes).values({ id: 12, body: 'rolled back' })
        throw new Error('outer fails')
      }),
    ).rejects.toThrow('outer fails')
    await db
      .transaction(async (tx) => {
        await tx.insert(notes).values({ id: 13, body: 'rolled back by rollback()' })
        tx.rollback()
      })
      .catch(() => {})
    const ids = (
      await db
        .select({ id: notes.id })
        .from(notes)
        .where(sql`${notes.id} >= 10`)
    ).map((row) => row.id)
    expect(ids).toEqual([10])
  })

  it('makes a query from outside wait until an open transaction ends, as PGlite does in one thread', async () => {
    const order: string[] = []
    let outside: Promise<unknown> | undefined
    await thread.transaction(async (tx) => {
      await tx.query('insert into notes (id, body) values (20, $1)', ['in the transaction'])
      outside = thread.query<{ n: number }>('select count(*)::int as n from notes where id = 20').then((result) => {
        order.push(`outside saw ${result.rows[0]?.n}`)
      })
      // Give the outside query every chance to run first, were it not held back.
      await new Promise((resolve) => setTimeout(resolve, 50))
      order.push('transaction ends')
    })
    await outside
    expect(order).toEqual(['transaction ends', 'outside saw 1'])
  })

  it('refuses a transaction handle used after its end, and a commit PostgreSQL turned into a rollback', async () => {
    let kept: { query: PgliteThread['query'] } | undefined
    await thread.transaction(async (tx) => {
      kept = tx
    })
    await expect(kept!.query('select 1')).rejects.toThrow('Transaction is closed')
    await expect(
      thread.transaction(async (tx) => {
        // The failed statement aborts the transaction; swallowing the error does not save it.
        await tx.query('select * from no_such_table').catch(() => {})
      }),
    ).rejects.toThrow(/rolled back|aborted/i)
  })

  it('after close, every call fails as a database outage does (503, not 500)', async () => {
    const other = await startPgliteThread()
    await other.close()
    const error = await other.query('select 1').catch((caught: unknown) => caught)
    expect(isDatabaseUnavailable(error)).toBe(true)
    expect(other.closed).toBe(true)
  })
})

describe('statements kept prepared in the worker (docs/decisions/056)', () => {
  let thread: PgliteThread
  let heard = 0
  beforeAll(async () => {
    thread = await startPgliteThread({ listen: ['kept_events'], onNotification: () => void heard++ })
    await thread.exec(`
      create table items (id integer primary key, label text not null, at timestamptz, doc jsonb, big int8);
      create function announce() returns trigger language plpgsql as $$ begin perform pg_notify('kept_events', ''); return null; end $$;
      create trigger items_announce after insert on items for each statement execute function announce();`)
  })
  afterAll(() => thread.close())

  const keptTexts = async () =>
    (await thread.query<{ statement: string }>(`select statement from pg_prepared_statements where name like 'aether_kept_%'`)).rows.map(
      (row) => row.statement,
    )

  it('keeps a text at its second use and answers from it as PGlite does: values, types, nulls, array rows', async () => {
    const text = `select $1::timestamptz as at, $2::jsonb as doc, $3::int8 as big, $4::text as nothing, $5::int as n, true as yes`
    const params = [new Date('2026-01-02T03:04:05Z'), { a: [1, 2] }, 9007199254740993n, null, 7]
    const answers = []
    for (let use = 0; use < 3; use++) answers.push(await thread.query(text, params))
    expect(answers[0]!.rows).toEqual([
      { at: new Date('2026-01-02T03:04:05Z'), doc: { a: [1, 2] }, big: 9007199254740993n, nothing: null, n: 7, yes: true },
    ])
    expect(answers[1]).toEqual(answers[0])
    expect(answers[2]).toEqual(answers[0])
    expect(await keptTexts()).toContain(text)
    const array = await thread.query(text, params, { rowMode: 'array' })
    expect(array.rows).toEqual([[new Date('2026-01-02T03:04:05Z'), { a: [1, 2] }, 9007199254740993n, null, 7, true]])
    // Used once: not kept.
    await thread.query(`select 'once' as only`)
    expect(await keptTexts()).not.toContain(`select 'once' as only`)
  })

  it('counts rows written, keeps error fields, and the engine goes on after an error', async () => {
    const insert = `insert into items (id, label) values ($1, $2)`
    for (const id of [1, 2, 3]) expect((await thread.query(insert, [id, `item ${id}`])).affectedRows).toBe(1)
    expect(await keptTexts()).toContain(insert)
    const error = (await thread.query(insert, [2, 'again']).catch((caught: unknown) => caught)) as { code: string; constraint: string }
    expect(error.code).toBe('23505')
    expect(error.constraint).toBe('items_pkey')
    expect((await thread.query(insert, [4, 'item 4'])).affectedRows).toBe(1)
    expect((await thread.query<{ n: number }>(`select count(*)::int as n from items`)).rows).toEqual([{ n: 4 }])
  })

  it('hears a notification of a kept statement before its answer', async () => {
    const insert = `insert into items (id, label) values ($1, 'announced')`
    for (const id of [10, 11, 12]) {
      const before = heard
      await thread.query(insert, [id])
      expect(heard).toBe(before + 1)
    }
    expect(await keptTexts()).toContain(insert)
  })

  it('answers with the table as it is now after the table changed under a kept statement', async () => {
    const text = `select * from items where id = $1`
    for (let use = 0; use < 2; use++)
      expect((await thread.query(text, [1])).rows).toEqual([expect.objectContaining({ id: 1, label: 'item 1' })])
    await thread.exec(`alter table items add column extra text not null default 'added'`)
    expect((await thread.query(text, [1])).rows).toEqual([expect.objectContaining({ id: 1, label: 'item 1', extra: 'added' })])
    expect((await thread.query(text, [1])).rows).toEqual([expect.objectContaining({ extra: 'added' })])
  })
})

describe('PGlite in a worker thread, on disk', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aether-pglite-thread-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('creates a new data folder, and what was written is there after close and reopen', async () => {
    const dataDir = path.join(dir, 'pglite')
    const first = await startPgliteThread({ dataDir })
    await first.exec('create table kept (value text)')
    await first.query('insert into kept values ($1)', ['written before close'])
    await first.close()
    const second = await startPgliteThread({ dataDir })
    try {
      const { rows } = await second.query('select value from kept')
      expect(rows).toEqual([{ value: 'written before close' }])
    } finally {
      await second.close()
    }
    // Three starts of PGlite, one of them creating the folder: slow on a busy machine.
  }, 120_000)
})
