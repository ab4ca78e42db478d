import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { cspDirectives } from '#server/testing/csp-directives.ts'

// The trace viewer Playwright ships, served by us at /trace-viewer/ (docs/decisions/060): its own
// files only, framing its snapshots (same origin, and its empty data: page) and framed by nothing else.

const VIEWER = path.join(path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'lib/vite/traceViewer')

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('the trace viewer', () => {
  it('is served from playwright-core with headers that let it frame its own snapshots', async () => {
    const response = await t.request('/trace-viewer/index.html', { headers: { 'accept-encoding': 'gzip' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-encoding')).toBe('gzip')
    const page = readFileSync(path.join(VIEWER, 'index.html'), 'utf8')
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString('utf8')).toBe(page)
    const csp = cspDirectives(response.headers.get('content-security-policy'))
    expect(csp.get('frame-src')).toEqual(["'self'", 'data:'])
    expect(csp.get('frame-ancestors')).toEqual(["'self'"])
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    // Its one inline script runs by its hash, nothing else inline does.
    const inline = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? ''
    expect(csp.get('script-src')).toEqual(["'self'", `'sha256-${createHash('sha256').update(inline).digest('base64')}'`, "'unsafe-eval'"])
    expect(csp.get('connect-src')).toContain("'self'")

    const worker = await t.request('/trace-viewer/sw.bundle.js')
    expect(worker.status).toBe(200)
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await worker.text()).toBe(readFileSync(path.join(VIEWER, 'sw.bundle.js'), 'utf8'))
  })

  it('serves nothing but its own files, and the rest of the site keeps its frame rules', async () => {
    for (const missing of ['/trace-viewer/nothing.js', '/trace-viewer/../package.json', '/trace-viewer/%2e%2e/package.json']) {
      const response = await t.request(missing)
      expect(response.status, missing).toBe(404)
    }
    const other = await t.request('/api/auth/me')
    expect(other.headers.get('x-frame-options')).toBe('DENY')
    expect(cspDirectives(other.headers.get('content-security-policy')).get('frame-src')).toEqual(["'none'"])
  })
})
