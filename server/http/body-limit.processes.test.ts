import { readFileSync } from 'node:fs'
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureFreshBuild, startServerProcess, stopServerProcess, type ServerProcess } from '#server/testing/server-process.ts'

// Issue 19's finding, on the production server over real sockets: one anonymous chunked post of
// 400 MB to a page took the server from 0.5 to 5.5 GB. Now every body has a limit (body-limit.ts):
// the post is refused with 413 at once and the server's memory stays where it was.

const POST_BYTES = 400 * 1024 * 1024
const CHUNK = Buffer.alloc(64 * 1024, 'a')
const MB = 1024 * 1024

let server: ServerProcess
beforeAll(async () => {
  ensureFreshBuild()
  server = await startServerProcess({ authSecret: 'body-limit-secret-0123456789abcdefghij' })
}, 1_500_000)
afterAll(async () => {
  await stopServerProcess(server)
})

/** Resident memory of the server process, from /proc. */
function rssBytes(): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

interface Outcome {
  status: number | null
  body: string
  sentBytes: number
  peakRss: number
  ms: number
}

/** Posts up to `total` bytes, chunked or with a declared length, watching the server's memory meanwhile. */
function post(path: string, type: string, options: { total: number; chunked: boolean }): Promise<Outcome> {
  const url = new URL(path, server.url)
  const started = Date.now()
  let peakRss = rssBytes()
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes())), 25)
  return new Promise((resolve) => {
    let sentBytes = 0
    let status: number | null = null
    let body = ''
    let settled = false
    const finish = () => {
      if (settled) return
      settled = true
      clearInterval(sampler)
      peakRss = Math.max(peakRss, rssBytes())
      resolve({ status, body, sentBytes, peakRss, ms: Date.now() - started })
    }
    const headers: Record<string, string> = { 'content-type': type, origin: server.url }
    if (!options.chunked) headers['content-length'] = String(options.total)
    const request = http.request(url, { method: 'POST', headers })
    request.on('response', (response) => {
      status = response.statusCode ?? null
      response.setEncoding('utf8')
      response.on('data', (text: string) => (body += text))
      response.on('end', () => {
        request.destroy()
        finish()
      })
    })
    request.on('error', () => setTimeout(finish, 200))
    request.on('close', () => setTimeout(finish, 200))
    const pump = () => {
      while (!settled && status === null && sentBytes < options.total) {
        sentBytes += CHUNK.length
        if (!request.write(CHUNK)) return void request.once('drain', pump)
      }
      if (sentBytes >= options.total) request.end()
    }
    pump()
  })
}

describe('a 400 MB body (production server, real sockets)', () => {
  it.each([
    ['a page form, chunked', '/contact', 'application/x-www-form-urlencoded', true],
    ['a page form with a declared length', '/services', 'application/x-www-form-urlencoded', false],
    ['the JSON API, chunked', '/api/contact', 'application/json', true],
    ['an upload, chunked', '/api/uploads/covers', 'multipart/form-data; boundary=x', true],
  ] as const)('%s: 413 within seconds, memory flat', { timeout: 60_000 }, async (_what, path, type, chunked) => {
    await fetch(`${server.url}/api/health`)
    const idle = rssBytes()
    const outcome = await post(path, type, { total: POST_BYTES, chunked })
    expect(outcome.status, outcome.body).toBe(413)
    expect(outcome.ms).toBeLessThan(10_000)
    expect(outcome.sentBytes).toBeLessThan(POST_BYTES)
    expect((outcome.peakRss - idle) / MB).toBeLessThan(100)
    // The server is fine afterwards.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200)
  })

  it('still takes an ordinary form', async () => {
    const response = await fetch(`${server.url}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'A normal message.' }),
      redirect: 'manual',
    })
    expect(response.status).toBeLessThan(400)
  })
})
