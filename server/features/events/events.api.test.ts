import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { eventReader } from '#server/testing/event-stream-reader.ts'

type Account = Awaited<ReturnType<TestApp['signUp']>>

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

describe('GET /api/runs/events', () => {
  it("delivers the member's run changes, and no one else's", async () => {
    const runner = await t.signUp()
    const steps = [{ type: 'navigate', url: 'https://example.com/' }]
    const automation = await t.request('/api/automations', { body: { name: 'Watched', steps }, token: runner.token })
    const automationId = ((await automation.json()) as { data: { id: string } }).data.id
    const startRun = async () => {
      const run = await t.request(`/api/automations/${automationId}/runs`, { body: { where: 'client' }, token: runner.token })
      expect(run.status).toBe(201)
      return ((await run.json()) as { data: { id: string } }).data.id
    }
    const events = eventReader(await t.request('/api/runs/events', { cookie: runner.cookie }))
    try {
      expect((await events.next()).event).toBe('ready')
      const first = await startRun()
      expect(JSON.parse((await events.next()).data)).toMatchObject({ id: first, status: 'running' })

      // Another member's run says nothing on this stream; the member's next one does.
      const other = await t.signUp()
      const theirs = await t.request('/api/automations', { body: { name: 'Not watched', steps }, token: other.token })
      const theirsId = ((await theirs.json()) as { data: { id: string } }).data.id
      expect((await t.request(`/api/automations/${theirsId}/runs`, { body: { where: 'client' }, token: other.token })).status).toBe(201)
      const second = await startRun()
      expect(JSON.parse((await events.next()).data)).toMatchObject({ id: second })
    } finally {
      await events.cancel().catch(() => {})
    }
  })
})
