import { describe, expect, it, vi } from 'vitest'
import { NotFound } from '#common/errors.ts'
import { readForPage } from './read-for-page.server.ts'

function contextWithLogger() {
  const error = vi.fn()
  return { context: { services: { logger: { error } } } as unknown as Parameters<typeof readForPage>[0], error }
}

describe('readForPage', () => {
  it('passes the data through', async () => {
    const { context } = contextWithLogger()
    expect(await readForPage(context, async () => [1, 2], 'fallback')).toEqual({ ok: true, value: [1, 2] })
  })

  it("answers a broken rule with the rule's message, without logging it", async () => {
    const { context, error } = contextWithLogger()
    expect(await readForPage(context, () => Promise.reject(new NotFound('No such page')), 'fallback')).toEqual({
      ok: false,
      message: 'No such page',
    })
    expect(error).not.toHaveBeenCalled()
  })

  it('answers an unexpected failure with the fallback and logs its cause', async () => {
    const { context, error } = contextWithLogger()
    const cause = new Error('connection refused')
    const result = await readForPage(context, () => Promise.reject(cause), 'An error occurred while fetching users')
    expect(result).toEqual({ ok: false, message: 'An error occurred while fetching users' })
    expect(error).toHaveBeenCalledWith({ err: cause }, 'An error occurred while fetching users')
  })
})
