import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('a profile that cannot be read', () => {
  it('keeps the member signed in with the default profile (no role, Free, no credits) and says so', async () => {
    const user = await t.signUp({ role: 'admin' })
    // A real fault, not a mock: the profiles table is gone for a moment.
    await t.db.execute(sql`alter table profiles rename to profiles_away`)
    try {
      const { user: session } = await t.services.sessions.resolve({ kind: 'bearer', token: user.token })
      expect(session?.id).toBe(user.id)
      expect(session?.profileUnavailable).toBe(true)
      expect(session?.profile).toMatchObject({ role: 'user', subscriptionPlan: 'free', credits: 0 })
      // The default profile grants nothing: an admin route refuses.
      expect((await t.request('/api/users', { token: user.token })).status).toBe(403)
    } finally {
      await t.db.execute(sql`alter table profiles_away rename to profiles`)
    }
    const { user: again } = await t.services.sessions.resolve({ kind: 'bearer', token: user.token })
    expect(again?.profileUnavailable).toBeUndefined()
    expect(again?.profile.role).toBe('admin')
  })
})
