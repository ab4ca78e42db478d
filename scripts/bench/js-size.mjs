// The JavaScript a page loads, gzipped at level 9: the same rule as scripts/page-js-size.js
// (module scripts, modulepreloads, inline dynamic imports and the modules the bootstrap preloads
// after the first paint, all named in the server HTML).
import { gzipSync } from 'node:zlib'

function get(url) {
  return fetch(url, { signal: AbortSignal.timeout(15_000) })
}

/** @returns {Promise<{files: number, rawBytes: number, gzipBytes: number, htmlBytes: number, htmlGzipBytes: number}>} */
export async function pageJsSize(base, path) {
  const response = await get(new URL(path, base))
  if (!response.ok) throw new Error(`${path} answered ${response.status}`)
  const html = await response.text()
  const urls = new Set()
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) urls.add(match[1])
  for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(match[1])
  for (const match of html.matchAll(/import\("([^"]+\.js)"\)/g)) urls.add(match[1])
  // The modules the bootstrap preloads after the first paint (app/components/paint-first-scripts.tsx).
  for (const match of html.matchAll(/\/\* modulepreload after first paint \*\/ (\[[^\]]*\])/g))
    for (const url of JSON.parse(match[1])) urls.add(url)
  let rawBytes = 0
  let gzipBytes = 0
  for (const url of urls) {
    const body = Buffer.from(await (await get(new URL(url, base))).arrayBuffer())
    rawBytes += body.length
    gzipBytes += gzipSync(body, { level: 9 }).length
  }
  const htmlBuffer = Buffer.from(html)
  return {
    files: urls.size,
    rawBytes,
    gzipBytes,
    htmlBytes: htmlBuffer.length,
    htmlGzipBytes: gzipSync(htmlBuffer, { level: 9 }).length,
  }
}
