// The embedded database's thread (docs/decisions/034-pglite-in-a-worker-thread.md): PGlite runs
// here, in a worker_threads Worker, so its queries no longer take turns with HTTP on the server's
// JavaScript thread. server/db/pglite-thread.ts starts it and speaks this protocol:
//
//   main -> worker  { id, op: 'query', sql, params, options, tx? }   one statement (PGlite.query)
//                   { id, op: 'exec', sql, options, tx? }            statements (PGlite.exec)
//                   { id, op: 'begin' }      opens a transaction; answered once it holds PGlite
//                   { id, op: 'rollback', tx }            the transaction's own rollback()
//                   { id, op: 'end', tx, commit }         commits (or rolls back) and closes it
//                   { id, op: 'gc' }          a full garbage collection (the server is idle)
//                   { id, op: 'close' }
//   worker -> main  { id, ok: true, value } or { id, ok: false, error }
//                   { notification: channel }   a NOTIFY on a channel of workerData.listen
//                   { ready: true } once open, or { ready: false, error } when it could not open
//
// Run as a process instead (`node pglite-worker.js <data folder> <settings as JSON>`), it creates
// a new data folder and exits: PGlite's initdb leaves about 300 MB behind (its second instance's
// WebAssembly memory and a copy of the first one's, reachable until the creating instance closes,
// and glibc keeps the memory a finished thread allocated), which only the end of a process frees.
//
// Every call goes to PGlite as it arrives, and PGlite's own locks order them as they do in one
// thread: a query outside a transaction waits for an open transaction to end; the transaction's
// queries (`tx`) run inside it. Plain JavaScript: Node 20 starts a worker file without a build
// step; the server build copies this file beside the bundle (vite.config.ts), which finds it by a
// URL relative to itself.
import { readFileSync } from 'node:fs'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parentPort, workerData } from 'node:worker_threads'
import { parse, PGlite, protocol } from '@electric-sql/pglite'

// PGlite's engine is 9 MB of WebAssembly. V8 compiles it twice by default (Liftoff at once, then
// TurboFan in the background for hot functions), and the second compiler's work memory stays in
// the process (glibc keeps it): Liftoff alone saves about 85 MB, and our short queries run as
// fast (docs/decisions/034). Read when the module is compiled (new PGlite below): set in time.
v8.setFlagsFromString('--liftoff-only')

// This thread's collection call, for the server's idle memory release (server/idle-memory.ts).
v8.setFlagsFromString('--expose-gc')
const gc = runInNewContext('typeof gc === "function" ? gc : undefined')

/** A process that creates a data folder, or the thread that serves one (or one in memory). */
const create = !parentPort
/** @type {{ dataDir: string | null, copyOf?: string | null, settings: Record<string, string>, listen?: string[] }} */
const {
  dataDir,
  copyOf,
  settings,
  listen = [],
} = create ? { dataDir: process.argv[2], settings: JSON.parse(process.argv[3] ?? '{}') } : workerData
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)

const startParams = [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])]

async function open() {
  // A copy of a dumped database starts without initdb's work (a migrated template, for tests).
  const db = dataDir
    ? new PGlite(dataDir, { startParams })
    : new PGlite({ startParams, ...(copyOf ? { loadDataDir: new Blob([readFileSync(copyOf)]) } : {}) })
  await db.waitReady
  return db
}

if (create) {
  try {
    await (await open()).close()
    process.exit(0)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}

/** What crosses to the main thread: the message and PostgreSQL's fields (code, detail, constraint, …). */
function serializeError(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} }
  const fields = {}
  for (const [key, value] of Object.entries(error)) {
    // queryOptions holds functions (parsers); params were the caller's own.
    if (key === 'queryOptions' || typeof value === 'function') continue
    fields[key] = value
  }
  return { name: error.name, message: error.message, stack: error.stack, fields }
}

const identity = (value) => value

/**
 * The options that can cross: `rawTypes` are the type OIDs whose text the caller parses itself
 * (its own `parsers`), the rest as PGlite gives them.
 */
function queryOptions(options = {}) {
  const { rawTypes, ...rest } = options
  return rawTypes?.length ? { ...rest, parsers: Object.fromEntries(rawTypes.map((oid) => [oid, identity])) } : rest
}

let db
try {
  db = await open()
  // PGlite hands a notification to its listener while it reads the answer of the statement that
  // committed it, so the main thread gets it before that statement's own answer.
  for (const channel of listen) await db.listen(channel, () => port.postMessage({ notification: channel }))
} catch (error) {
  port.postMessage({ ready: false, error: serializeError(error) })
  process.exit(1)
}

/**
 * Statements kept prepared, by their text (docs/decisions/056). PGlite's query() parses, analyses
 * and plans every statement afresh (6 protocol calls); the app runs the same few hundred texts
 * over and over, and a kept one costs a bind and an execute in one call, half the engine's time.
 * A text is kept at its second use, and at most MAX_KEPT of them (each holds a plan in the
 * engine's memory, which never shrinks): the rest run as before.
 */
const MAX_KEPT = 300
/** @type {Map<string, { name: string, paramTypes: number[], rowDescription: object | undefined }>} */
const kept = new Map()
/** Texts seen once, waiting for a second use; forgotten in bulk when too many. */
const seenOnce = new Set()
/** The engine's answers that mean a kept statement no longer fits (the table changed under it). */
const STALE_STATEMENT = new Set(['0A000', '26000'])

/** PGlite's query(), with the statement kept when it is used again; `options` as queryOptions() makes them. */
async function query(sql, params = [], options = {}) {
  if (options.blob || options.paramTypes) return db.query(sql, params, options)
  let statement = kept.get(sql)
  if (!statement) {
    if (kept.size >= MAX_KEPT || !seenOnce.has(sql)) {
      if (seenOnce.size >= 5_000) seenOnce.clear()
      seenOnce.add(sql)
      return db.query(sql, params, options)
    }
    seenOnce.delete(sql)
    statement = await exclusively(() => prepare(sql))
    kept.set(sql, statement)
  }
  try {
    return await exclusively(() => execute(statement, params, options))
  } catch (error) {
    if (!STALE_STATEMENT.has(error?.code)) throw Object.assign(error, { query: sql, params })
    kept.delete(sql)
    await exclusively(() => db.execProtocolStream(protocol.serialize.close({ type: 'S', name: statement.name }), { syncToFs: false }))
    return db.query(sql, params, options)
  }
}

/** As PGlite's own query() holds the engine: after any open transaction, alone. */
const exclusively = (work) => db._runExclusiveTransaction(() => db._runExclusiveQuery(work))

let statements = 0
async function prepare(sql) {
  const name = `aether_kept_${++statements}`
  const serialize = protocol.serialize
  const messages = await db.execProtocolStream(
    concat(serialize.parse({ name, text: sql, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()),
    { syncToFs: false },
  )
  return {
    name,
    paramTypes: parse.parseDescribeStatementResults(messages),
    rowDescription: messages.find((message) => message.name === 'rowDescription'),
  }
}

async function execute(statement, params, options) {
  const values = params.map((value, i) => {
    if (value == null) return null
    const serializer = options.serializers?.[statement.paramTypes[i]] ?? db.serializers[statement.paramTypes[i]]
    return serializer ? serializer(value) : value.toString()
  })
  const serialize = protocol.serialize
  const messages = await db.execProtocolStream(
    concat(serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()),
    { syncToFs: false },
  )
  if (!db.isInTransaction()) await db.syncToFs()
  const answers = statement.rowDescription ? [statement.rowDescription, ...messages] : messages
  return parse.parseResults(answers, db.parsers, options)[0]
}

/** Protocol messages sent in one call: the engine reads them in turn. */
function concat(...parts) {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let at = 0
  for (const part of parts) {
    whole.set(part, at)
    at += part.byteLength
  }
  return whole
}

/** Open transactions by the id of their 'begin': PGlite's handle and how to end them. */
const transactions = new Map()
/** The transaction a Rollback sentinel ends; thrown inside PGlite's transaction() to roll back. */
const ROLLBACK = Symbol('rollback')

const answer = (id, work) =>
  work.then(
    (value) => port.postMessage({ id, ok: true, value }),
    (error) => port.postMessage({ id, ok: false, error: serializeError(error) }),
  )

function target(message) {
  if (message.tx === undefined) return db
  const open = transactions.get(message.tx)
  if (!open) throw new Error('Transaction is closed')
  return open.tx
}

function begin(id) {
  let end
  const ended = new Promise((resolve) => {
    end = resolve
  })
  const entry = { tx: null, end, endId: null }
  let started = false
  db.transaction(async (tx) => {
    entry.tx = tx
    transactions.set(id, entry)
    started = true
    port.postMessage({ id, ok: true, value: null })
    if (!(await ended)) throw ROLLBACK
  }).then(
    () => {
      transactions.delete(id)
      port.postMessage({ id: entry.endId, ok: true, value: null })
    },
    (error) => {
      transactions.delete(id)
      if (!started) port.postMessage({ id, ok: false, error: serializeError(error) })
      else if (error === ROLLBACK) port.postMessage({ id: entry.endId, ok: true, value: null })
      else port.postMessage({ id: entry.endId, ok: false, error: serializeError(error) })
    },
  )
}

port.on('message', (message) => {
  const { id, op } = message
  try {
    switch (op) {
      case 'query':
        void answer(
          id,
          message.tx === undefined
            ? query(message.sql, message.params, queryOptions(message.options))
            : target(message).query(message.sql, message.params, queryOptions(message.options)),
        )
        return
      case 'exec':
        void answer(id, target(message).exec(message.sql, queryOptions(message.options)))
        return
      case 'begin':
        begin(id)
        return
      case 'rollback':
        void answer(id, target(message).rollback())
        return
      case 'end': {
        const entry = transactions.get(message.tx)
        if (!entry) throw new Error('Transaction is closed')
        entry.endId = id
        entry.end(Boolean(message.commit))
        return
      }
      case 'gc':
        gc?.()
        port.postMessage({ id, ok: true, value: null })
        return
      case 'close':
        void answer(id, db.close()).then(() => port.close())
        return
      default:
        throw new Error(`unknown operation ${op}`)
    }
  } catch (error) {
    port.postMessage({ id, ok: false, error: serializeError(error) })
  }
})

port.postMessage({ ready: true })
