// Prints the gzipped size of the JavaScript a page loads (its module scripts, modulepreloads, inline
// dynamic imports and the modules its bootstrap preloads after the first paint).
// usage: node scripts/page-js-size.js http://localhost:3000 /auth /
import { gzipSync } from 'node:zlib'

const [base = 'http://localhost:3000', ...paths] = process.argv.slice(2)
for (const path of paths.length ? paths : ['/']) {
  const html = await (await fetch(new URL(path, base))).text()
  const urls = new Set()
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) urls.add(match[1])
  for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(match[1])
  for (const match of html.matchAll(/import\("([^"]+\.js)"\)/g)) urls.add(match[1])
  // The modules the bootstrap preloads after the first paint (app/components/paint-first-scripts.tsx).
  for (const match of html.matchAll(/\/\* modulepreload after first paint \*\/ (\[[^\]]*\])/g))
    for (const url of JSON.parse(match[1])) urls.add(url)
  let raw = 0
  let gzip = 0
  for (const url of urls) {
    const body = Buffer.from(await (await fetch(new URL(url, base))).arrayBuffer())
    raw += body.length
    gzip += gzipSync(body, { level: 9 }).length
  }
  console.log(`${path}: ${urls.size} files, ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzipped`)
}
