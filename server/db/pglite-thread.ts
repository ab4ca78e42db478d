import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite'

/**
 * PGlite in a worker thread (docs/decisions/034-pglite-in-a-worker-thread.md): the engine, its
 * WebAssembly memory and the parsing of results live in `pglite-worker.js`; this side offers
 * the part of PGlite's interface that Drizzle's PGlite driver and our code use (query, exec,
 * transaction, close), each call a message. The server's JavaScript thread then only serialises
 * parameters and receives rows, and HTTP and queries use both cores.
 */
export interface PgliteThreadOptions {
  /** The data folder; none keeps the database in memory (tests). */
  dataDir?: string
  /** In memory only: a copy of the database in this file (PGlite's dumpDataDir), instead of a new one. */
  copyOf?: string
  /** PostgreSQL settings the engine starts with (`-c name=value`). */
  settings?: Record<string, string>
  /** Channels whose notifications reach onNotification, each before the answer of the statement that committed it. */
  listen?: string[]
  onNotification?: (channel: string) => void
}

/** The PGlite calls this thread serves, as Drizzle's driver makes them. */
export interface PgliteThread {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>
  exec(sql: string, options?: QueryOptions): Promise<Results[]>
  transaction<T>(callback: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T>
  /** A full garbage collection in the thread (server/idle-memory.ts). */
  releaseMemory(): Promise<void>
  close(): Promise<void>
  readonly closed: boolean
}

export type PgliteThreadTransaction = Pick<Transaction, 'query' | 'exec' | 'rollback' | 'closed'>

const workerFile = fileURLToPath(new URL('./pglite-worker.js', import.meta.url))

interface SerializedError {
  name: string
  message: string
  stack?: string
  fields: Record<string, unknown>
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError }

interface Call {
  op: 'query' | 'exec' | 'begin' | 'rollback' | 'end' | 'gc' | 'close'
  sql?: string
  params?: unknown[]
  options?: { rowMode?: 'array' | 'object'; paramTypes?: number[]; rawTypes?: number[] }
  tx?: number
  commit?: boolean
}

/** An error of the worker, rebuilt with PostgreSQL's fields (code, detail, constraint, …). */
function rebuild(serialized: SerializedError): Error {
  const error = new Error(serialized.message)
  error.name = serialized.name
  Object.assign(error, serialized.fields)
  return error
}

/**
 * The engine's thread ended (it crashed, or close() ran): what every call gets from then on. It
 * carries 57P01, PostgreSQL's code for a server that is shutting down, so that requests answer
 * 503 as in any database outage (docs/decisions/013-database-outage.md).
 */
function stoppedError(reason: string) {
  return Object.assign(new Error(`The embedded database is not running: ${reason}`), { code: '57P01' })
}

export async function startPgliteThread(options: PgliteThreadOptions = {}): Promise<PgliteThread> {
  const settings = options.settings ?? {}
  // A new data folder is created by a process of its own, which takes initdb's memory with it
  // when it ends (pglite-worker.js).
  if (options.dataDir && !existsSync(path.join(options.dataDir, 'PG_VERSION'))) {
    await createDataDir(options.dataDir, settings)
  }
  const worker = new Worker(workerFile, {
    workerData: { dataDir: options.dataDir ?? null, copyOf: options.copyOf ?? null, settings, listen: options.listen ?? [] },
    // The thread's young generation: results are short-lived, and the default (up to 32 MB)
    // would mostly hold garbage at the server's peak; its old generation: see OLD_GENERATION_MB
    // (docs/decisions/034).
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: OLD_GENERATION_MB },
  })
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let nextId = 1
  let stopped: Error | null = null
  let closing = false

  await ready(worker)

  // An idle thread must not keep the process alive (a script that forgets close() still ends);
  // one with calls under way must, or their promises would be dropped.
  worker.unref()
  const settle = (id: number) => {
    const entry = pending.get(id)
    pending.delete(id)
    if (pending.size === 0) worker.unref()
    return entry
  }

  worker.on('message', (reply: Reply | { notification: string }) => {
    if ('notification' in reply) return options.onNotification?.(reply.notification)
    const entry = settle(reply.id)
    if (!entry) return
    if (reply.ok) entry.resolve(reply.value)
    else entry.reject(rebuild(reply.error))
  })
  const stop = (reason: string) => {
    if (stopped) return
    stopped = stoppedError(reason)
    for (const [id, entry] of pending) {
      settle(id)
      entry.reject(stopped)
    }
  }
  worker.on('error', (error) => stop(error.message))
  worker.on('exit', (code) => stop(closing ? 'closed' : `its thread exited (code ${code})`))

  function call<T>(message: Call): { id: number; done: Promise<T> } {
    const id = nextId++
    if (stopped) return { id, done: Promise.reject(stopped) }
    const done = new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref()
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
    })
    try {
      worker.postMessage({ id, ...message })
    } catch (error) {
      // Parameters that cannot be copied to the thread (a function, a class instance with methods).
      settle(id)?.reject(error as Error)
    }
    return { id, done }
  }

  async function query<T>(sql: string, params: unknown[] | undefined, queryOptions: QueryOptions | undefined, tx?: number) {
    const parsers = crossing(queryOptions)
    const result = await call<Results<T>>({
      op: 'query',
      sql,
      params,
      options: {
        rowMode: queryOptions?.rowMode,
        paramTypes: queryOptions?.paramTypes,
        rawTypes: parsers ? Object.keys(parsers).map(Number) : undefined,
      },
      tx,
    }).done
    if (parsers) applyParsers(result as Results, parsers, queryOptions?.rowMode)
    return result
  }

  async function exec(sql: string, queryOptions: QueryOptions | undefined, tx?: number) {
    const parsers = crossing(queryOptions)
    const results = await call<Results[]>({
      op: 'exec',
      sql,
      options: { rowMode: queryOptions?.rowMode, rawTypes: parsers ? Object.keys(parsers).map(Number) : undefined },
      tx,
    }).done
    if (parsers) for (const result of results) applyParsers(result, parsers, queryOptions?.rowMode)
    return results
  }

  return {
    get closed() {
      return closing || stopped !== null
    },
    query: (sql, params, queryOptions) => query(sql, params, queryOptions),
    exec: (sql, queryOptions) => exec(sql, queryOptions),
    async transaction(callback) {
      const begin = call<null>({ op: 'begin' })
      await begin.done
      const txId = begin.id
      let closed = false
      const open = () => {
        if (closed) throw new Error('Transaction is closed')
      }
      const tx: PgliteThreadTransaction = {
        query: async (sql, params, queryOptions) => {
          open()
          return query(sql, params, queryOptions, txId)
        },
        exec: async (sql, queryOptions) => {
          open()
          return exec(sql, queryOptions, txId)
        },
        rollback: async () => {
          open()
          await call({ op: 'rollback', tx: txId }).done
          closed = true
        },
        get closed() {
          return closed
        },
      }
      let result
      try {
        result = await callback(tx)
      } catch (error) {
        closed = true
        await call({ op: 'end', tx: txId, commit: false }).done
        throw error
      }
      closed = true
      await call({ op: 'end', tx: txId, commit: true }).done
      return result
    },
    async releaseMemory() {
      await call({ op: 'gc' }).done
    },
    async close() {
      if (closing || stopped) return
      closing = true
      const exited = new Promise((resolve) => worker.once('exit', resolve))
      await call({ op: 'close' }).done
      await exited
    },
  }
}

/** The PGlite thread's young generation, in MB (V8's default grows to 32 MB). */
const YOUNG_GENERATION_MB = 8
/**
 * The PGlite thread's old generation limit, in MB, as `--max-old-space-size` in the start scripts
 * for the main thread: below 2 GB V8 lets the old generation grow to at most 1.6 times what was
 * live after a full collection instead of 4 times (docs/decisions/034).
 */
const OLD_GENERATION_MB = 1024

async function createDataDir(dataDir: string, settings: Record<string, string>) {
  const child = spawn(process.execPath, [workerFile, dataDir, JSON.stringify(settings)], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const [code] = (await once(child, 'exit')) as [number | null]
  if (code !== 0) throw new Error(`PGlite could not create ${dataDir}: ${stderr.trim() || `exit code ${code}`}`)
}

/** Resolves once the thread has opened the database; rejects with its error when it could not. */
function ready(worker: Worker) {
  return new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: boolean; error?: SerializedError }) => {
      if (message.ready === undefined) return
      worker.off('message', onMessage)
      worker.off('error', reject)
      if (message.ready) resolve()
      else reject(rebuild(message.error!))
    }
    worker.on('message', onMessage)
    worker.once('error', reject)
  })
}

/** Parsers are functions and cannot cross: their types come back as text and are parsed here. */
function crossing(options: QueryOptions | undefined) {
  if (options?.serializers || options?.blob || options?.onNotice)
    throw new Error('PGlite thread: serializers, blob and onNotice options are not supported')
  const parsers = options?.parsers
  return parsers && Object.keys(parsers).length ? parsers : null
}

function applyParsers(result: Results, parsers: NonNullable<QueryOptions['parsers']>, rowMode: QueryOptions['rowMode']) {
  const columns = result.fields.flatMap((field, index) => {
    // PGlite calls a parser with the text and the type's OID, as this does.
    const parse = parsers[field.dataTypeID] as ((value: string, type: number) => unknown) | undefined
    return parse ? [{ key: rowMode === 'array' ? index : field.name, parse, type: field.dataTypeID }] : []
  })
  if (!columns.length) return
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const { key, parse, type } of columns) {
      const value = row[key]
      if (typeof value === 'string') row[key] = parse(value, type)
    }
  }
}

/** For Drizzle's PGlite driver, which takes a PGlite instance and calls only the methods above. */
export const asPglite = (thread: PgliteThread) => thread as unknown as PGlite
