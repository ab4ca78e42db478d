import { describe, expect, it } from 'vitest'
import { COVER_HEIGHT, COVER_WIDTH, coverPalette, renderBlogCoverSvg, wrapTitle } from './blog-cover.ts'
import { escapeXml } from './xml.ts'

describe('renderBlogCoverSvg', () => {
  it('is deterministic: the same title gives the same bytes, another title other colours', () => {
    const title = 'Automate Your Browser in 10 Minutes'
    expect(renderBlogCoverSvg(title)).toBe(renderBlogCoverSvg(title))
    expect(coverPalette(title)).toEqual(coverPalette(title))
    expect(coverPalette(title).from).not.toBe(coverPalette('Five Workflows Every Small Team Should Automate').from)
  })

  it('is a 600x400 SVG that carries the title', () => {
    const svg = renderBlogCoverSvg('Hello cover')
    expect(COVER_WIDTH).toBe(600)
    expect(COVER_HEIGHT).toBe(400)
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="600" height="400" viewBox="0 0 600 400"/)
    expect(svg).toContain('>Hello cover</tspan>')
    expect(svg).toContain('<title>Hello cover</title>')
    expect(svg.endsWith('</svg>')).toBe(true)
  })

  it('escapes the title so it cannot add markup', () => {
    const svg = renderBlogCoverSvg(`</text><script>alert("x")</script> & 'quotes' <img onerror=1>`)
    expect(svg).not.toContain('<script')
    expect(svg).not.toContain('<img')
    expect(svg).toContain('&lt;/text&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(svg).toContain('&amp;')
    expect(svg).toContain('&apos;quotes&apos;')
    // Only the elements the generator writes itself.
    const tags = new Set([...svg.matchAll(/<([a-zA-Z]+)/g)].map((match) => match[1]))
    expect([...tags].sort()).toEqual(['circle', 'defs', 'linearGradient', 'rect', 'stop', 'svg', 'text', 'title', 'tspan'])
  })

  it('drops characters XML forbids', () => {
    expect(escapeXml('a\u0000b\u0008c\u001fd\ufffe')).toBe('abcd')
    expect(escapeXml('emoji 🚀 ok')).toBe('emoji 🚀 ok')
    expect(escapeXml('lone \ud800 surrogate')).toBe('lone  surrogate')
  })

  it('wraps long titles onto lines, breaks over-long words and ends a cut title with an ellipsis', () => {
    expect(wrapTitle('one two three', 8)).toEqual(['one two', 'three'])
    expect(wrapTitle('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl'])
    const lines = wrapTitle('word '.repeat(100), 10, 3)
    expect(lines).toHaveLength(3)
    expect(lines[2]?.endsWith('…')).toBe(true)
    expect(renderBlogCoverSvg('   ')).toContain('Aether Blog</tspan>')
  })
})
