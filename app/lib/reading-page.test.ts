import type { UIMatch } from 'react-router'
import { describe, expect, it } from 'vitest'
import { readingPage, scriptsStart } from './reading-page.ts'

const match = (handle: unknown) => ({ id: 'x', pathname: '/', params: {}, loaderData: undefined, data: undefined, handle }) as UIMatch

describe('scriptsStart', () => {
  it('waits for the first interaction when a matched route is a reading page', () => {
    expect(scriptsStart([match(undefined), match(undefined), match(readingPage)], false)).toBe('on-interaction')
  })

  it('loads after the paint on other pages, and on a reading page with a message to show', () => {
    expect(scriptsStart([match(undefined), match({ other: true })], false)).toBe('after-paint')
    expect(scriptsStart([match(undefined), match(readingPage)], true)).toBe('after-paint')
  })
})
