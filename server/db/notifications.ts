import { EventEmitter } from 'node:events'
import pg from 'pg'

/**
 * Messages between the server processes that share one database: PostgreSQL's LISTEN/NOTIFY on
 * a dedicated connection (reconnecting after a drop), or, for the embedded single-process PGlite,
 * an in-process emitter. Payloads are small JSON texts (PostgreSQL allows under 8000 bytes).
 */
export interface Notifications {
  notify(payload: string): Promise<void>
  /** Every payload sent by any process, this one included. */
  subscribe(listener: (payload: string) => void): () => void
  close(): Promise<void>
}

const CHANNEL = 'aether_events'
const RECONNECT_MS = [200, 1000, 5000]

export function inProcessNotifications(): Notifications {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  return {
    notify: async (payload) => void emitter.emit('message', payload),
    subscribe(listener) {
      emitter.on('message', listener)
      return () => emitter.off('message', listener)
    },
    close: async () => void emitter.removeAllListeners(),
  }
}

export function postgresNotifications(url: string, pool: pg.Pool, onError: (error: unknown) => void = () => {}): Notifications {
  const local = inProcessNotifications()
  let client: pg.Client | null = null
  let closed = false
  let attempt = 0

  async function connect(): Promise<void> {
    if (closed) return
    const next = new pg.Client({ connectionString: url })
    next.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload !== undefined) void local.notify(message.payload)
    })
    next.on('error', (error) => {
      onError(error)
      void reconnect(next)
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${CHANNEL}`)
      client = next
      attempt = 0
    } catch (error) {
      onError(error)
      await reconnect(next)
    }
  }

  async function reconnect(broken: pg.Client): Promise<void> {
    if (client === broken) client = null
    await broken.end().catch(() => {})
    if (closed) return
    const delay = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]
    setTimeout(() => void connect(), delay).unref()
  }

  const ready = connect()

  return {
    async notify(payload) {
      await pool.query('select pg_notify($1, $2)', [CHANNEL, payload])
    },
    subscribe: local.subscribe,
    async close() {
      closed = true
      await ready
      await client?.end().catch(() => {})
      await local.close()
    },
  }
}
