import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from './app-env.ts'
import { compressAnswers, FIRST_FLIGHT_BYTES, THRESHOLD_BYTES } from './compress-answers.ts'

/** Above the size that goes as it is (FIRST_FLIGHT_BYTES), under the one compressed at once. */
const big = { items: Array.from({ length: 250 }, (_, n) => ({ id: n, name: `Item number ${n}`, note: 'the same words again' })) }
/** Under FIRST_FLIGHT_BYTES: it reaches the client in the first round trip all the same. */
const fewKb = { items: big.items.slice(0, 60) }
/** Above the size compressed at once: it goes to the thread pool. */
const huge = { items: Array.from({ length: 2000 }, (_, n) => ({ id: n, name: `Item number ${n}`, note: 'the same words again' })) }

function app() {
  const hono = new Hono<AppEnv>()
  hono.use(compressAnswers())
  hono.get('/api/big', (c) => c.json(big))
  hono.get('/api/huge', (c) => c.json(huge))
  hono.get('/api/small', (c) => c.json({ ok: true }))
  hono.get('/api/few-kb', (c) => c.json(fewKb))
  hono.get('/api/etag', (c) => c.json(big, 200, { ETag: '"v1"' }))
  hono.get('/api/events', (c) => c.body('data: x\n\n'.repeat(500), 200, { 'Content-Type': 'text/event-stream' }))
  hono.get('/page', (c) => c.html(`<p>${'A page of words. '.repeat(200)}</p>`))
  return hono
}

const get = (path: string, acceptEncoding?: string, method = 'GET') =>
  app().request(path, { method, headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} })

describe('compressing answers', () => {
  it('sends a JSON answer in brotli or gzip, as the client accepts, with the same JSON inside', async () => {
    const br = await get('/api/big', 'gzip, deflate, br')
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toContain('Accept-Encoding')
    const brBytes = Buffer.from(await br.arrayBuffer())
    expect(brBytes.byteLength).toBeLessThan(JSON.stringify(big).length / 4)
    expect(JSON.parse(brotliDecompressSync(brBytes).toString())).toEqual(big)

    const gz = await get('/api/big', 'gzip')
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(big)

    const plain = await get('/api/big')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toContain('Accept-Encoding')
    expect(await plain.json()).toEqual(big)
    const refused = await get('/api/big', 'br;q=0, gzip;q=0')
    expect(refused.headers.get('content-encoding')).toBeNull()
  })

  it('compresses a large answer the same way, on the thread pool', async () => {
    expect(JSON.stringify(big).length).toBeGreaterThan(FIRST_FLIGHT_BYTES)
    expect(JSON.stringify(big).length).toBeLessThan(16 * 1024)
    expect(JSON.stringify(huge).length).toBeGreaterThan(16 * 1024)
    const br = await get('/api/huge', 'br')
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(JSON.parse(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString())).toEqual(huge)
    const gz = await get('/api/huge', 'gzip')
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(huge)
  })

  it('leaves small answers, HEAD and event streams as they are, and weakens a strong ETag', async () => {
    const small = await get('/api/small', 'br')
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(await small.json()).toEqual({ ok: true })
    expect(JSON.stringify(fewKb).length).toBeGreaterThan(THRESHOLD_BYTES)
    expect(JSON.stringify(fewKb).length).toBeLessThan(FIRST_FLIGHT_BYTES)
    const firstFlight = await get('/api/few-kb', 'gzip, br')
    expect(firstFlight.headers.get('content-encoding')).toBeNull()
    expect(firstFlight.headers.get('vary')).toContain('Accept-Encoding')
    expect(await firstFlight.json()).toEqual(fewKb)
    expect((await get('/api/big', 'br', 'HEAD')).headers.get('content-encoding')).toBeNull()
    const events = await get('/api/events', 'gzip, br')
    expect(events.headers.get('content-encoding')).toBeNull()
    expect(await events.text()).toContain('data: x')
    expect((await get('/api/etag', 'br')).headers.get('etag')).toBe('W/"v1"')
  })

  it('streams pages through gzip', async () => {
    const page = await get('/page', 'gzip, br')
    expect(page.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await page.arrayBuffer())).toString()).toContain('A page of words.')
  })
})
