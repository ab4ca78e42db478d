import { describe, expect, it } from 'vitest'
import { AI_DRAFT_LIMITS, blogDraftRequestSchema, excerptFromMarkdown, TITLE_REQUIRED } from './ai.ts'

function issuesOf(input: unknown) {
  const result = blogDraftRequestSchema.safeParse(input)
  expect(result.success).toBe(false)
  return result.error?.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) ?? []
}

describe('blogDraftRequestSchema', () => {
  it('fills in the defaults: informative, medium, no keywords', () => {
    expect(blogDraftRequestSchema.parse({ title: '  Web scraping 101  ' })).toEqual({
      title: 'Web scraping 101',
      keywords: [],
      tone: 'informative',
      length: 'medium',
    })
  })

  it('takes topic as a synonym of title, and prefers title when both are given', () => {
    expect(blogDraftRequestSchema.parse({ topic: 'Automation' }).title).toBe('Automation')
    expect(blogDraftRequestSchema.parse({ topic: 'Automation', title: 'Scraping' }).title).toBe('Scraping')
    expect(blogDraftRequestSchema.parse({ topic: 'Automation', title: '   ' }).title).toBe('Automation')
  })

  it('requires a title (or topic) with the spec message', () => {
    expect(TITLE_REQUIRED).toEqual({ title: 'Title required', description: 'Please enter a title to generate content' })
    for (const input of [{}, { title: '' }, { title: '   ' }, { topic: ' ', keywords: 'a' }]) {
      expect(issuesOf(input)).toEqual([{ path: 'title', message: 'Please enter a title to generate content' }])
    }
    expect(issuesOf({ title: 42 })).toEqual([{ path: 'title', message: 'Title must be text' }])
  })

  it('limits the title to 200 characters', () => {
    expect(blogDraftRequestSchema.safeParse({ title: 'x'.repeat(AI_DRAFT_LIMITS.title) }).success).toBe(true)
    expect(issuesOf({ title: 'x'.repeat(AI_DRAFT_LIMITS.title + 1) })).toEqual([
      { path: 'title', message: 'Title must be at most 200 characters.' },
    ])
  })

  it('accepts keywords as a comma-separated string or an array: trimmed, blanks dropped', () => {
    const parse = (keywords: unknown) => blogDraftRequestSchema.parse({ title: 'T', keywords }).keywords
    expect(parse(' seo, web scraping ,, python ,')).toEqual(['seo', 'web scraping', 'python'])
    expect(parse(['  seo ', '', '   ', 'python'])).toEqual(['seo', 'python'])
    expect(parse('')).toEqual([])
    expect(parse([])).toEqual([])
    expect(parse(undefined)).toEqual([])
  })

  it('limits keywords to 20 of 50 characters each', () => {
    const many = Array.from({ length: AI_DRAFT_LIMITS.keywords + 1 }, (_, index) => `k${index}`)
    expect(blogDraftRequestSchema.safeParse({ title: 'T', keywords: many.slice(0, -1) }).success).toBe(true)
    expect(issuesOf({ title: 'T', keywords: many.join(',') })).toEqual([{ path: 'keywords', message: 'Use at most 20 keywords.' }])
    expect(issuesOf({ title: 'T', keywords: ['ok', 'x'.repeat(51)] })).toEqual([
      { path: 'keywords.1', message: 'Each keyword must be at most 50 characters.' },
    ])
    expect(issuesOf({ title: 'T', keywords: 7 })[0]?.path).toBe('keywords')
  })

  it('accepts the five tones and three lengths, and names the choices otherwise', () => {
    for (const tone of ['informative', 'professional', 'casual', 'enthusiastic', 'technical']) {
      expect(blogDraftRequestSchema.parse({ title: 'T', tone }).tone).toBe(tone)
    }
    for (const length of ['short', 'medium', 'long']) {
      expect(blogDraftRequestSchema.parse({ title: 'T', length }).length).toBe(length)
    }
    expect(issuesOf({ title: 'T', tone: 'sarcastic' })).toEqual([
      { path: 'tone', message: 'Tone must be one of: informative, professional, casual, enthusiastic, technical' },
    ])
    expect(issuesOf({ title: 'T', length: 'epic' })).toEqual([{ path: 'length', message: 'Length must be one of: short, medium, long' }])
  })
})

describe('excerptFromMarkdown', () => {
  it('returns a short first paragraph whole, without an ellipsis', () => {
    expect(excerptFromMarkdown('A short intro.\n\nSecond paragraph.')).toBe('A short intro.')
  })

  it('cuts a long first paragraph to 150 characters plus "..."', () => {
    const paragraph = 'word '.repeat(60).trim()
    const excerpt = excerptFromMarkdown(`${paragraph}\n\nMore.`)
    expect(excerpt.endsWith('...')).toBe(true)
    expect(excerpt.slice(0, -3)).toBe(paragraph.slice(0, 150).trimEnd())
    expect(excerptFromMarkdown('x'.repeat(150))).toBe('x'.repeat(150))
    expect(excerptFromMarkdown('x'.repeat(151))).toBe(`${'x'.repeat(150)}...`)
  })

  it('skips headings, blockquotes, code fences and rules to find the first paragraph', () => {
    const markdown = [
      '> Offline draft: no AI provider is configured.',
      '',
      '# Title',
      '## Subtitle',
      '',
      '```ts',
      'const notAParagraph = true',
      '',
      'still code',
      '```',
      '',
      '---',
      '',
      'Setext heading',
      '==============',
      '',
      'The real intro',
      'continues on a second line.',
      '',
      'Not this one.',
    ].join('\n')
    expect(excerptFromMarkdown(markdown)).toBe('The real intro continues on a second line.')
  })

  it('strips emphasis, links, inline code, images and HTML', () => {
    const markdown =
      '![cover](https://example.com/a.png) Learn **web scraping** with *Python*, _fast_ and ~~slow~~ ' +
      '[our guide](https://example.com/guide) and `pip install requests`. <b>Bold</b> snake_case_name stays.'
    expect(excerptFromMarkdown(markdown)).toBe(
      'Learn web scraping with Python, fast and slow our guide and pip install requests. Bold snake_case_name stays.',
    )
  })

  it('strips list markers and skips an image-only paragraph', () => {
    expect(excerptFromMarkdown('![only an image](a.png)\n\n- first item\n- second item')).toBe('first item second item')
  })

  it('returns an empty string when there is no paragraph', () => {
    expect(excerptFromMarkdown('')).toBe('')
    expect(excerptFromMarkdown('# Heading only\n\n> quote')).toBe('')
  })
})
