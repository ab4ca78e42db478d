import { describe, expect, it } from 'vitest'
import { normaliseOgTitle, OG_HEIGHT, OG_WIDTH, renderOgImage } from './og-image.server.tsx'

describe('social card', () => {
  it('normalises the title: whitespace collapsed, a fallback when empty, long titles cut', () => {
    expect(normaliseOgTitle('  Hello \n  world ', 'Aether')).toBe('Hello world')
    expect(normaliseOgTitle(null, 'Aether')).toBe('Aether')
    expect(normaliseOgTitle('   ', 'Aether')).toBe('Aether')
    const long = normaliseOgTitle('x'.repeat(500), 'Aether')
    expect([...long]).toHaveLength(140)
    expect(long.endsWith('…')).toBe(true)
  })

  it('renders a 1200x630 PNG once per title and serves repeats from memory', async () => {
    const first = renderOgImage('A <b>title</b> & more', 'Aether')
    expect(renderOgImage('A <b>title</b> & more', 'Aether')).toBe(first)
    const png = Buffer.from(await first)
    expect(png.subarray(1, 4).toString()).toBe('PNG')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([OG_WIDTH, OG_HEIGHT])
  })
})
