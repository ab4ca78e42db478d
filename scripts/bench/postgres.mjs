// A scratch database on a PostgreSQL server for a benchmark run, dropped at clean-up.
import { randomBytes } from 'node:crypto'
import { cleanups } from './cleanup.mjs'

/** Creates `<prefix>_<time>_<random>` on the server at `serverUrl`; returns its URL and a drop(). */
export async function scratchPostgresDatabase(serverUrl, prefix = 'aether_bench') {
  const { default: pg } = await import('pg')
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`create database "${name}"`)
  const drop = () => admin(`drop database if exists "${name}" with (force)`)
  cleanups.push(drop)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), name, drop }
}
