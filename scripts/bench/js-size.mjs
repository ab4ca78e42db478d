// The JavaScript a page loads, gzipped at level 9: module scripts, modulepreloads, inline dynamic
// imports and the modules the bootstrap preloads after the first paint, all named in the server
// HTML. On a page whose modules wait for the visitor's first interaction
// (app/components/paint-first-scripts.tsx), what that bootstrap imports is counted apart.
import { gzipSync } from 'node:zlib'

function get(url) {
  return fetch(url, { signal: AbortSignal.timeout(15_000) })
}

/** The bootstrap of a page whose modules wait for the first interaction, if the page is one. */
const WAITING_BOOTSTRAP =
  /<script[^>]*>((?:(?!<\/script>)[\s\S])*\/\* modulepreload after the first interaction \*\/(?:(?!<\/script>)[\s\S])*)<\/script>/

/** The script URLs a page names: those it loads with the page, and those it loads at the first interaction. */
export function pageScripts(html) {
  const waiting = WAITING_BOOTSTRAP.exec(html)
  const onLoad = scriptUrls(waiting ? html.replace(waiting[0], '') : html)
  const onInteraction = new Set([...scriptUrls(waiting?.[1] ?? '')].filter((url) => !onLoad.has(url)))
  return { onLoad, onInteraction }
}

function scriptUrls(text) {
  const urls = new Set()
  for (const match of text.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) urls.add(match[1])
  for (const match of text.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(match[1])
  for (const match of text.matchAll(/import\("([^"]+\.js)"\)/g)) urls.add(match[1])
  for (const match of text.matchAll(/\/\* modulepreload after (?:first paint|the first interaction) \*\/ (\[[^\]]*\])/g))
    for (const url of JSON.parse(match[1])) urls.add(url)
  return urls
}

/** The files at `urls` (relative to `base`): how many, their bytes, and their bytes gzipped at level 9. */
export async function measure(base, urls) {
  let rawBytes = 0
  let gzipBytes = 0
  for (const url of urls) {
    const body = Buffer.from(await (await get(new URL(url, base))).arrayBuffer())
    rawBytes += body.length
    gzipBytes += gzipSync(body, { level: 9 }).length
  }
  return { files: urls.size, rawBytes, gzipBytes }
}

/**
 * @returns {Promise<{files: number, rawBytes: number, gzipBytes: number, htmlBytes: number, htmlGzipBytes: number,
 *   interaction: {files: number, rawBytes: number, gzipBytes: number}}>} the figures on load, and the interaction's
 */
export async function pageJsSize(base, path) {
  const response = await get(new URL(path, base))
  if (!response.ok) throw new Error(`${path} answered ${response.status}`)
  const html = await response.text()
  const { onLoad, onInteraction } = pageScripts(html)
  const htmlBuffer = Buffer.from(html)
  return {
    ...(await measure(base, onLoad)),
    interaction: await measure(base, onInteraction),
    htmlBytes: htmlBuffer.length,
    htmlGzipBytes: gzipSync(htmlBuffer, { level: 9 }).length,
  }
}
