import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { hashTitle } from '#common/blog-cover.ts'

// The 1200x630 social card behind og:image (app/lib/seo.ts), drawn on our server: satori lays the
// title out as SVG with the Inter font shipped by @fontsource/inter (satori reads woff, not woff2),
// resvg turns it into a PNG. Rendered cards are kept in memory by title.

export const OG_WIDTH = 1200
export const OG_HEIGHT = 630
const MAX_TITLE_CHARS = 140
const CACHE_SIZE = 200

const require = createRequire(import.meta.url)
const FONT_FILES = [
  { weight: 700, file: '@fontsource/inter/files/inter-latin-700-normal.woff' },
  { weight: 700, file: '@fontsource/inter/files/inter-latin-ext-700-normal.woff' },
  { weight: 500, file: '@fontsource/inter/files/inter-latin-500-normal.woff' },
] as const

type Font = { name: string; data: Buffer; weight: 500 | 700; style: 'normal' }
let fonts: Promise<Font[]> | null = null
function loadFonts(): Promise<Font[]> {
  fonts ??= Promise.all(
    FONT_FILES.map(async ({ weight, file }) => ({
      name: 'Inter',
      data: await readFile(require.resolve(file)),
      weight,
      style: 'normal' as const,
    })),
  )
  return fonts
}

const cache = new Map<string, Promise<Uint8Array<ArrayBuffer>>>()

/** The title as the card shows it: whitespace collapsed, at most MAX_TITLE_CHARS characters. */
export function normaliseOgTitle(raw: string | null | undefined, fallback: string): string {
  const chars = [...(raw ?? '').replace(/\s+/g, ' ').trim()]
  if (chars.length === 0) return fallback
  return chars.length > MAX_TITLE_CHARS
    ? `${chars
        .slice(0, MAX_TITLE_CHARS - 1)
        .join('')
        .trimEnd()}…`
    : chars.join('')
}

/** Whether a card is already in memory (serving it costs nothing). */
export function ogImageCached(title: string, siteName: string): boolean {
  return cache.has(cacheKey(title, siteName))
}

const cacheKey = (title: string, siteName: string) => `${siteName}\u0000${title}`

/** The PNG card for a title; the same title is rendered once and then served from memory. */
export function renderOgImage(title: string, siteName: string): Promise<Uint8Array<ArrayBuffer>> {
  const key = cacheKey(title, siteName)
  const cached = cache.get(key)
  if (cached) {
    // Most recently used last, so the oldest is evicted first.
    cache.delete(key)
    cache.set(key, cached)
    return cached
  }
  const rendered = draw(title, siteName)
  rendered.catch(() => cache.delete(key))
  cache.set(key, rendered)
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  return rendered
}

async function draw(title: string, siteName: string): Promise<Uint8Array<ArrayBuffer>> {
  const [{ default: satori }, { Resvg }, fontList] = await Promise.all([import('satori'), import('@resvg/resvg-js'), loadFonts()])
  const hue = hashTitle(title) % 360
  const fontSize = title.length > 90 ? 52 : title.length > 50 ? 62 : 72
  const svg = await satori(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: '72px 80px',
        color: '#ffffff',
        fontFamily: 'Inter',
        backgroundImage: `linear-gradient(135deg, hsl(${hue}, 70%, 30%) 0%, hsl(${(hue + 60) % 360}, 75%, 16%) 100%)`,
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', fontSize: 34, fontWeight: 700 }}>
        <div style={{ width: 44, height: 44, borderRadius: 12, marginRight: 18, background: `hsl(${(hue + 180) % 360}, 85%, 70%)` }} />
        {siteName}
      </div>
      <div style={{ display: 'flex', fontSize, fontWeight: 700, lineHeight: 1.15, letterSpacing: '-0.02em' }}>{title}</div>
      <div style={{ display: 'flex', fontSize: 26, fontWeight: 500, opacity: 0.8 }}>AI-powered browser and desktop automation</div>
    </div>,
    { width: OG_WIDTH, height: OG_HEIGHT, fonts: fontList },
  )
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: OG_WIDTH }, font: { loadSystemFonts: false } }).render().asPng()
  return new Uint8Array(png)
}
