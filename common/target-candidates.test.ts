import { describe, expect, it } from 'vitest'
import { lastingPart, targetCandidates } from './target-candidates.ts'

// A name that carries a date or a time (a mail's row, a log line) changes from one run to the
// next: its words before it lead, matched as part of the name.

const link = (name: string) =>
  targetCandidates({
    role: 'link',
    name,
    label: null,
    placeholder: null,
    text: name,
    testId: null,
    tag: 'a',
    css: 'ul > li > a',
    interactive: true,
  })

describe('the lasting part of a name', () => {
  it.each([
    ['Marathon training plan To: team@example.com 2026-11-28 12:40:24 (+0000)', 'Marathon training plan To: team@example.com'],
    ['Backup finished on 12/03/2026 without errors', 'Backup finished on'],
    ['Standup notes, updated at 9:30 by the team', 'Standup notes, updated at'],
  ])('%s', (name, lasting) => {
    expect(lastingPart(name)).toBe(lasting)
  })

  it('is none for short names, names without a date or time, and names that start with one', () => {
    expect(lastingPart('Meeting at 10:30')).toBeNull()
    expect(lastingPart('Order 1042 for Grace Hopper, three items')).toBeNull()
    expect(lastingPart('2026-11-28 12:40:24 Marathon training plan')).toBeNull()
  })

  it('leads the ways to find the element, the whole name behind it, CSS last', () => {
    expect(link('Marathon training plan To: team@example.com 2026-11-28 12:40:24 (+0000)')).toEqual([
      { by: 'role', role: 'link', name: 'Marathon training plan To: team@example.com' },
      { by: 'role', role: 'link', name: 'Marathon training plan To: team@example.com 2026-11-28 12:40:24 (+0000)' },
      { by: 'css', selector: 'ul > li > a' },
    ])
    expect(link('Compiler meeting moved')).toEqual([
      { by: 'role', role: 'link', name: 'Compiler meeting moved' },
      { by: 'css', selector: 'ul > li > a' },
    ])
  })
})
