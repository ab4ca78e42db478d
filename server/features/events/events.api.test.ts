import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

type Account = Awaited<ReturnType<TestApp['signUp']>>
type ServerEvent = { event: string; data: string }

let t: TestApp
let admin: Account
let member: Account

beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
  member = await t.signUp()
})
afterAll(async () => {
  await t.close()
})

/** Reads server-sent events from a response body, one complete event (blank-line terminated) at a time. */
function eventReader(response: Response) {
  if (!response.body) throw new Error('the response has no body')
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''

  async function next(timeoutMs = 5000): Promise<ServerEvent> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const end = buffer.indexOf('\n\n')
      if (end !== -1) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const lines = block.split('\n')
        // Comment lines (heartbeats) are not events.
        if (lines.every((line) => line.startsWith(':'))) continue
        const field = (name: string) =>
          lines
            .filter((line) => line.startsWith(`${name}:`))
            .map((line) => line.slice(name.length + 1).trimStart())
            .join('\n')
        return { event: field('event') || 'message', data: field('data') }
      }
      const remaining = deadline - Date.now()
      if (remaining <= 0) throw new Error('no event arrived in time')
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no event arrived in time')), remaining)
      })
      const read = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer))
      if (read.done) throw new Error('the stream ended')
      buffer += decoder.decode(read.value, { stream: true })
    }
  }

  return { next, cancel: () => reader.cancel() }
}

const inquiry = { name: 'Live Lead', email: 'lead@example.com', projectType: 'custom-tools', message: 'Build us a dashboard scraper.' }

describe('GET /api/events/inquiries', () => {
  it('streams text/event-stream: first ready, then an inquiry event when someone sends an inquiry', async () => {
    const response = await t.request('/api/events/inquiries', { token: admin.token })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = eventReader(response)
    try {
      expect(await events.next()).toEqual({ event: 'ready', data: '{}' })

      const sent = await t.request('/api/contact', { body: inquiry, ip: t.freshIp() })
      expect(sent.status).toBe(201)
      const { data } = (await sent.json()) as { data: { id: string } }

      const created = await events.next()
      expect(created.event).toBe('inquiry')
      expect(JSON.parse(created.data)).toEqual({ type: 'created', id: data.id, name: 'Live Lead' })

      // An admin marking it processed is an update event.
      const marked = await t.request(`/api/contact/${data.id}`, { method: 'PUT', body: { processed: true }, token: admin.token })
      expect(marked.status).toBe(200)
      const updated = await events.next()
      expect(updated.event).toBe('inquiry')
      expect(JSON.parse(updated.data)).toMatchObject({ type: 'updated', id: data.id })
    } finally {
      await events.cancel()
    }
  })

  it('stops listening when the client goes away; later inquiries are still stored', async () => {
    const bus = t.services.events
    const subscribe = bus.subscribe.bind(bus)
    let listening = 0
    const spy = vi.spyOn(bus, 'subscribe').mockImplementation((topic, listener) => {
      const off = subscribe(topic, listener)
      listening++
      let done = false
      return () => {
        if (!done) listening--
        done = true
        off()
      }
    })
    try {
      const response = await t.request('/api/events/inquiries', { token: admin.token })
      const events = eventReader(response)
      expect((await events.next()).event).toBe('ready')
      expect(listening).toBe(1)
      await events.cancel()
      await vi.waitFor(() => expect(listening).toBe(0))
      const sent = await t.request('/api/contact', { body: { ...inquiry, name: 'After Close' }, ip: t.freshIp() })
      expect(sent.status).toBe(201)
    } finally {
      spy.mockRestore()
    }
  })

  it('is refused to members (403) and visitors (401) with JSON, not a stream', async () => {
    const forbidden = await t.request('/api/events/inquiries', { token: member.token })
    expect(forbidden.status).toBe(403)
    expect(forbidden.headers.get('content-type')).toMatch(/application\/json/)
    expect(((await forbidden.json()) as { message: string }).message).toBe('Admin access required.')
    const anonymous = await t.request('/api/events/inquiries')
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('content-type')).toMatch(/application\/json/)
    await anonymous.body?.cancel()
  })
})
