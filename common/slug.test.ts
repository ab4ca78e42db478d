import { describe, expect, it } from 'vitest'
import { slugify, uniqueSlug } from './slug.ts'

describe('slugs', () => {
  it('makes a readable ASCII slug from a title', () => {
    expect(slugify('Automate Your Browser in 10 Minutes!')).toBe('automate-your-browser-in-10-minutes')
    expect(slugify('  Café — Crème brûlée  ')).toBe('cafe-creme-brulee')
    expect(slugify('???')).toBe('')
    expect(slugify('a'.repeat(100)).length).toBe(80)
  })

  it('numbers a slug that is taken', () => {
    expect(uniqueSlug('post', new Set())).toBe('post')
    expect(uniqueSlug('post', new Set(['post', 'post-2']))).toBe('post-3')
  })
})
