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
/** Waits between reconnect attempts of the listening connection; the last one repeats. */
const RECONNECT_MS = [200, 1000, 2000, 5000]

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

export interface PostgresNotificationsOptions {
  /** How long one connection attempt may take. */
  connectTimeoutMs?: number
  /** The listening connection broke (or could not be made); called once per outage. */
  onLost?: (error: unknown) => void
  /** LISTEN is active; `reconnected` after an outage. */
  onListening?: (reconnected: boolean) => void
  /** Other channels the connection listens on, each with what to do when a notification arrives there. */
  alsoListen?: Record<string, () => void>
}

/**
 * LISTEN on a dedicated connection. When it breaks (the database restarts or is out of reach) it
 * is replaced, with growing waits up to 5 s between attempts, and LISTEN runs again: messages
 * sent while no connection listened are lost (delivery is best effort, see event-bus.ts).
 */
export function postgresNotifications(url: string, pool: pg.Pool, options: PostgresNotificationsOptions = {}): Notifications {
  const local = inProcessNotifications()
  let client: pg.Client | null = null
  let closed = false
  let attempt = 0
  let lost = false
  let connecting: Promise<void> = Promise.resolve()
  let retryTimer: NodeJS.Timeout | null = null

  function connect() {
    retryTimer = null
    if (closed) return
    connecting = open()
  }

  async function open(): Promise<void> {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: options.connectTimeoutMs })
    let broken = false
    const fail = (error: unknown) => {
      // A broken connection can report twice (the failed query and the 'error' event): one retry.
      if (broken) return
      broken = true
      if (!lost) {
        lost = true
        options.onLost?.(error)
      }
      if (client === next) client = null
      void next.end().catch(() => {})
      if (closed) return
      const delay = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]
      retryTimer = setTimeout(connect, delay)
      retryTimer.unref()
    }
    next.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload !== undefined) void local.notify(message.payload)
      else options.alsoListen?.[message.channel]?.()
    })
    next.on('error', fail)
    try {
      await next.connect()
      for (const channel of [CHANNEL, ...Object.keys(options.alsoListen ?? {})]) await next.query(`LISTEN ${channel}`)
    } catch (error) {
      fail(error)
      return
    }
    if (broken) return
    if (closed) {
      await next.end().catch(() => {})
      return
    }
    client = next
    attempt = 0
    options.onListening?.(lost)
    lost = false
  }

  connect()

  return {
    async notify(payload) {
      await pool.query('select pg_notify($1, $2)', [CHANNEL, payload])
    },
    subscribe: local.subscribe,
    async close() {
      closed = true
      if (retryTimer) clearTimeout(retryTimer)
      await connecting
      await client?.end().catch(() => {})
      client = null
      await local.close()
    },
  }
}
