import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ogImagePath, OG_IMAGE_PURPOSE } from '#app/lib/seo.server.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { loader } from './og-image.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

function card(path: string, clientIp = '203.0.113.90') {
  const request = new Request(`http://localhost:3000${path}`)
  return loader({ request, params: {}, context: { services: t.services, clientIp } } as unknown as Parameters<typeof loader>[0])
}

describe('GET /og.png', () => {
  it('draws the titles our pages signed, and the site card without a title', async () => {
    const signed = await card(ogImagePath('Hello from Aether', { services: t.services }))
    expect(signed.status).toBe(200)
    expect(signed.headers.get('content-type')).toBe('image/png')
    expect((await card('/og.png')).status).toBe(200)
  })

  it('answers 404 for a title nobody signed, a tampered one, or another purpose’s signature', async () => {
    expect((await card('/og.png?title=Anything%20I%20like')).status).toBe(404)
    const path = ogImagePath('Real title', { services: t.services })
    expect((await card(path.replace('Real', 'Fake'))).status).toBe(404)
    const otherPurpose = t.services.urlSigner.sign('something-else', 'Real title')
    expect((await card(`/og.png?title=Real%20title&sig=${otherPurpose}`)).status).toBe(404)
    expect(t.services.urlSigner.verify(OG_IMAGE_PURPOSE, 'Real title', null)).toBe(false)
  })

  it('draws at most 20 new cards a minute for one client; cards in memory are always served', async () => {
    const ip = '203.0.113.91'
    const titles = Array.from({ length: 21 }, (_, index) => `Rate limited card ${index}`)
    for (const title of titles.slice(0, 20)) expect((await card(ogImagePath(title, { services: t.services }), ip)).status).toBe(200)
    const refused = await card(ogImagePath(titles[20] ?? '', { services: t.services }), ip)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await card(ogImagePath(titles[0] ?? '', { services: t.services }), ip)).status).toBe(200)
    expect((await card(ogImagePath(titles[20] ?? '', { services: t.services }), '203.0.113.92')).status).toBe(200)
  })
})
