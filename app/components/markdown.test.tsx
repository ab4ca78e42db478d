import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Markdown } from './markdown.tsx'

const render = (source: string) => renderToStaticMarkup(<Markdown>{source}</Markdown>)

describe('Markdown', () => {
  it('renders headings, quotes, lists, code and tables, with a Markdown h1 demoted to h2', () => {
    const html = render(
      '# Big\n\n## Title\n\n> quoted\n\n- one\n- two\n\n1. first\n\n`inline`\n\n```js\nlet a = 1\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
    )
    expect(html).not.toContain('<h1')
    expect(html).toContain('>Big</h2>')
    expect(html).toContain('>Title</h2>')
    expect(html).toMatch(/<blockquote[^>]*>\s*<p[^>]*>quoted<\/p>/)
    expect(html).toMatch(/<ul[^>]*>\s*<li[^>]*>one<\/li>/)
    expect(html).toMatch(/<ol[^>]*>/)
    expect(html).toMatch(/<pre[^>]*><code class="[^"]*language-js/)
    expect(html).toMatch(/<table[^>]*>/)
    expect(html).toMatch(/<td[^>]*>2<\/td>/)
  })

  it('renders no raw HTML', () => {
    const html = render('Hello <script>alert(1)</script> <img src=x onerror=alert(1)> <b>bold</b>\n\n<div onclick="x()">block</div>')
    expect(html).not.toMatch(/<script|<img|<b>|<div onclick|onerror|onclick/)
  })

  it('makes links with other schemes harmless and marks external links', () => {
    const html = render(
      '[a](javascript:alert(1)) [b](JAVASCRIPT:alert(1)) [c](&#106;avascript:alert(1)) [d](data:text/html,x) [e](vbscript:x) [f](<java\tscript:alert(1)>)',
    )
    expect(html).not.toMatch(/javascript|data:|vbscript/i)
    expect(html.match(/href="#"/g)).toHaveLength(6)
    const links = render(
      '[ext](https://example.com) [rel](/blog) [mail](mailto:a@example.com) [tel](tel:+1555) [anchor](#x) [query](?page=2)',
    )
    expect(links).toContain(
      'href="https://example.com" class="font-medium text-primary underline underline-offset-4 hover:no-underline" target="_blank" rel="noopener noreferrer nofollow"',
    )
    expect(links).toMatch(/href="\/blog" class="[^"]*">rel/)
    expect(links).toContain('href="mailto:a@example.com"')
    expect(links).toContain('href="tel:+1555"')
    expect(links).toContain('href="#x"')
    expect(links).toContain('href="?page=2"')
    expect(links.match(/target="_blank"/g)).toHaveLength(1)
  })

  it('shows images only from our own origin', () => {
    expect(render('![local](/uploads/a.png)')).toContain('<img src="/uploads/a.png" alt="local"')
    const external = render('![remote](https://images.example.com/a.png) ![proto](//evil.example/a.png) ![js](javascript:alert(1))')
    expect(external).not.toContain('<img')
    expect(external).toContain('remote')
  })
})
