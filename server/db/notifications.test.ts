import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { inProcessNotifications, postgresNotifications, type Notifications } from './notifications.ts'

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL

function nextMessage(notifications: Notifications, match: (payload: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no message within 5 s')), 5000)
    const stop = notifications.subscribe((payload) => {
      if (!match(payload)) return
      clearTimeout(timer)
      stop()
      resolve(payload)
    })
  })
}

describe('notifications', () => {
  it('in one process: every subscriber gets what is sent, until it unsubscribes', async () => {
    const notifications = inProcessNotifications()
    const seen: string[] = []
    const stop = notifications.subscribe((payload) => seen.push(payload))
    await notifications.notify('one')
    stop()
    await notifications.notify('two')
    expect(seen).toEqual(['one'])
  })

  it.runIf(serverUrl)('across processes on PostgreSQL: what one sends, the other receives (and so does the sender)', async () => {
    const pools = [new pg.Pool({ connectionString: serverUrl }), new pg.Pool({ connectionString: serverUrl })]
    const [a, b] = pools.map((pool) => postgresNotifications(serverUrl as string, pool)) as [Notifications, Notifications]
    try {
      // The listening connection may still be starting: send until the other side hears.
      const token = `hello-${Math.random()}`
      const heardByB = nextMessage(b, (payload) => payload === token)
      const heardByA = nextMessage(a, (payload) => payload === token)
      const sender = setInterval(() => void a.notify(token), 100)
      try {
        await expect(heardByB).resolves.toBe(token)
        await expect(heardByA).resolves.toBe(token)
      } finally {
        clearInterval(sender)
      }
    } finally {
      await a.close()
      await b.close()
      await Promise.all(pools.map((pool) => pool.end()))
    }
  })
})
