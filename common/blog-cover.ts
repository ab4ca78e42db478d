// The cover a post gets when it has no uploaded image (decisions.md, "Dead ends": stock-photo
// covers become covers generated on our server). Pure and deterministic: the same title always
// gives the same bytes, so browsers and CDNs may keep it.

import { escapeXml } from './xml.ts'

export const COVER_WIDTH = 600
export const COVER_HEIGHT = 400

const FONT_SIZE = 34
const LINE_HEIGHT = 44
const MAX_LINES = 5
// Roughly how many characters of a sans-serif bold face fit across the text box at FONT_SIZE.
const CHARS_PER_LINE = 26

/** 32-bit FNV-1a: a small, stable hash of the title's UTF-16 code units. */
export function hashTitle(title: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < title.length; i++) {
    hash ^= title.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** Splits a title into at most `maxLines` lines of about `width` characters, with an ellipsis if cut. */
export function wrapTitle(title: string, width = CHARS_PER_LINE, maxLines = MAX_LINES): string[] {
  const words = title.trim().split(/\s+/).filter(Boolean)
  const lines: string[] = []
  let current = ''
  for (const word of words) {
    // A word longer than a line is broken into line-sized pieces.
    const pieces = Array.from({ length: Math.ceil([...word].length / width) }, (_, i) =>
      [...word].slice(i * width, (i + 1) * width).join(''),
    )
    for (const piece of pieces) {
      if (!current) current = piece
      else if ([...current].length + 1 + [...piece].length <= width) current = `${current} ${piece}`
      else {
        lines.push(current)
        current = piece
      }
    }
  }
  if (current) lines.push(current)
  if (lines.length <= maxLines) return lines
  const kept = lines.slice(0, maxLines)
  const last = [...(kept[maxLines - 1] ?? '')]
  kept[maxLines - 1] = `${last
    .slice(0, Math.max(0, width - 1))
    .join('')
    .trimEnd()}…`
  return kept
}

/** Two hues and the decoration positions for a title. */
export function coverPalette(title: string) {
  const hash = hashTitle(title)
  const hue = hash % 360
  const second = (hue + 40 + ((hash >>> 9) % 100)) % 360
  return {
    from: `hsl(${hue} 70% 42%)`,
    to: `hsl(${second} 75% 28%)`,
    accent: `hsl(${(hue + 180) % 360} 85% 70%)`,
    circle: { x: 380 + ((hash >>> 3) % 200), y: 40 + ((hash >>> 11) % 140), r: 90 + ((hash >>> 17) % 90) },
  }
}

/** A 600x400 SVG cover showing the title on a gradient derived from it. */
export function renderBlogCoverSvg(title: string): string {
  const cleanTitle = title.trim() || 'Aether Blog'
  const palette = coverPalette(cleanTitle)
  const lines = wrapTitle(cleanTitle)
  const blockHeight = lines.length * LINE_HEIGHT
  const firstBaseline = Math.round((COVER_HEIGHT - blockHeight) / 2 + FONT_SIZE)
  const text = lines.map((line, i) => `<tspan x="48" y="${firstBaseline + i * LINE_HEIGHT}">${escapeXml(line)}</tspan>`).join('')
  const label = escapeXml(cleanTitle)
  const { circle } = palette
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}" viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}" role="img" aria-label="${label}">`,
    `<title>${label}</title>`,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.from}"/><stop offset="1" stop-color="${palette.to}"/></linearGradient></defs>`,
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="url(#bg)"/>`,
    `<circle cx="${circle.x}" cy="${circle.y}" r="${circle.r}" fill="${palette.accent}" fill-opacity="0.18"/>`,
    `<circle cx="${COVER_WIDTH - circle.x / 3}" cy="${COVER_HEIGHT - circle.y / 2}" r="${Math.round(circle.r / 2)}" fill="#ffffff" fill-opacity="0.08"/>`,
    `<rect x="48" y="${firstBaseline - FONT_SIZE - 28}" width="56" height="6" rx="3" fill="${palette.accent}"/>`,
    `<text font-family="Inter, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-size="${FONT_SIZE}" font-weight="700" fill="#ffffff">${text}</text>`,
    `<text x="48" y="${COVER_HEIGHT - 32}" font-family="Inter, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-size="16" font-weight="600" fill="#ffffff" fill-opacity="0.75">Aether Blog</text>`,
    `</svg>`,
  ].join('')
}
