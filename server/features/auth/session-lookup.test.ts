import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_IDLE_SECONDS } from '#server/auth.ts'
import { profiles, sessions, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '#server/testing/create-test-app.ts'
import { credentialOf } from '#server/http/credentials.ts'
import { createSessionLookup, type SessionLookup } from './session-lookup.ts'

let t: TestApp
let lookup: SessionLookup
beforeAll(async () => {
  t = await createTestApp()
  lookup = createSessionLookup(t.db, TEST_AUTH_SECRET)
})
afterAll(async () => {
  await t.close()
})

const DAY_MS = 24 * 60 * 60 * 1000
/** The credential a request with these headers presents, as the app reads it. */
const from = (headers: Record<string, string>) => credentialOf(new Headers(headers))
const bearer = (token: string) => from({ authorization: `Bearer ${token}` })
const cookie = (value: string) => from({ cookie: value })

async function sessionOf(userId: string) {
  const [session] = await t.db.select().from(sessions).where(eq(sessions.userId, userId))
  if (!session) throw new Error('no session')
  return session
}

describe('the one-query session lookup', () => {
  it('finds a live session by its bearer token or its signed cookie, with user and profile', async () => {
    const user = await t.signUp({ fullName: 'Lookup Person', verified: false })
    const session = await sessionOf(user.id)
    for (const headers of [bearer(user.token), cookie(`theme=dark; ${user.cookie}`)]) {
      expect(await lookup.find(headers)).toMatchObject({
        sessionId: session.id,
        user: { id: user.id, email: user.email, emailVerified: false },
        profile: { id: user.id, fullName: 'Lookup Person', role: 'user', credits: 5 },
      })
    }
  })

  it("reads the member's access to the workspace the request opens, their personal one by default, in the same query", async () => {
    const user = await t.signUp()
    const stranger = await t.signUp()
    const personal = await lookup.find(bearer(user.token))
    expect(personal?.workspace).toEqual(await t.services.workspaces.access(user.id, user.id))
    expect(personal?.workspace).toMatchObject({ id: user.id, kind: 'personal', role: 'owner', planSlug: 'free' })

    const teamId = `team-${user.id}`
    await t.db.insert(workspaces).values({ id: teamId, name: 'Lookup Team', kind: 'team' })
    await t.db.insert(workspaceMembers).values({ workspaceId: teamId, userId: user.id, role: 'viewer' })
    const team = await lookup.find(bearer(user.token), teamId)
    expect(team?.workspace).toEqual(await t.services.workspaces.access(user.id, teamId))
    expect(team?.workspace).toMatchObject({ id: teamId, name: 'Lookup Team', kind: 'team', role: 'viewer' })
    // The session is found all the same where the member has no place: the caller decides what that means.
    for (const elsewhere of [stranger.id, 'no-such-workspace']) {
      const found = await lookup.find(bearer(user.token), elsewhere)
      expect(found?.sessionId).toBe((await sessionOf(user.id)).id)
      expect(found?.workspace).toBeNull()
    }
  })

  it('finds nothing for a forged cookie, an unknown token, an API key or a signed bearer token', async () => {
    const user = await t.signUp()
    const [name, value] = user.cookie.split('=') as [string, string]
    const signed = decodeURIComponent(value)
    const otherToken = `${signed.slice(0, signed.lastIndexOf('.'))}x`
    expect(await lookup.find(cookie(`${name}=${encodeURIComponent(`${otherToken}${signed.slice(signed.lastIndexOf('.'))}`)}`))).toBeNull()
    expect(await lookup.find(cookie(`${name}=${encodeURIComponent(signed.slice(0, signed.lastIndexOf('.')))}`))).toBeNull()
    expect(await lookup.find(bearer('no-such-session-token'))).toBeNull()
    expect(await lookup.find(bearer('ak_0123456789abcdef'))).toBeNull()
    expect(await lookup.find(bearer(signed))).toBeNull()
    // Better Auth reads only "bearer " followed by the token; anything else is its business.
    expect(await lookup.find(from({ authorization: `Bearer\t${user.token}` }))).toBeNull()
    expect(await lookup.find(from({ authorization: `Token ${user.token}` }))).toBeNull()
    expect(await lookup.find(from({ authorization: `bearer ${user.token}` }))).not.toBeNull()
  })

  it('leaves expired, refresh-due and profile-less sessions to Better Auth', async () => {
    const expired = await t.signUp()
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, expired.id))
    expect(await lookup.find(bearer(expired.token))).toBeNull()

    const due = await t.signUp()
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 5 * DAY_MS) })
      .where(eq(sessions.userId, due.id))
    expect(await lookup.find(bearer(due.token))).toBeNull()

    const profileLess = await t.signUp()
    await t.db.delete(profiles).where(eq(profiles.id, profileLess.id))
    expect(await lookup.find(bearer(profileLess.token))).toBeNull()
  })
})

describe('signed-in requests', () => {
  it('slide a session due for refresh (Better Auth renews its expiry and the cookie)', async () => {
    const user = await t.signUp()
    const twoDaysOld = new Date(Date.now() + SESSION_IDLE_SECONDS * 1000 - 2 * DAY_MS)
    await t.db.update(sessions).set({ expiresAt: twoDaysOld }).where(eq(sessions.userId, user.id))
    const response = await t.request('/api/auth/me', { cookie: user.cookie })
    expect(response.status).toBe(200)
    expect(response.headers.getSetCookie().some((value) => value.startsWith('auth_session=') && /Max-Age=604800/i.test(value))).toBe(true)
    const renewed = (await sessionOf(user.id)).expiresAt.getTime() - Date.now()
    expect(renewed).toBeGreaterThan(SESSION_IDLE_SECONDS * 1000 - 60_000)
  })

  it('still get a profile made for them when it was missing', async () => {
    const user = await t.signUp({ fullName: 'Profile Again' })
    await t.db.delete(profiles).where(eq(profiles.id, user.id))
    const response = await t.request('/api/auth/me', { token: user.token })
    expect(response.status).toBe(200)
    const [profile] = await t.db.select().from(profiles).where(eq(profiles.id, user.id))
    expect(profile).toMatchObject({ fullName: 'Profile Again' })
  })

  it('end with the session: a signed-out token is refused at once', async () => {
    const user = await t.signUp()
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(200)
    expect((await t.request('/api/auth/logout', { method: 'POST', token: user.token })).status).toBeLessThan(300)
    expect(await lookup.find(bearer(user.token))).toBeNull()
    expect((await t.request('/api/auth/me', { token: user.token })).status).toBe(401)
  })
})

describe('sessions kept until a table they are read from changes (ADR 055)', () => {
  /** What the lookup hears of: a number that grows with each change, or null (nothing can be kept). */
  const changesAt = (value: () => number | null) => ({ seen: value })
  const nameFound = async (lookup: SessionLookup, token: string) => (await lookup.find(bearer(token)))?.profile.fullName

  it('serves a row it read until a change is heard, and copies it for each request', async () => {
    const user = await t.signUp({ fullName: 'Kept Person' })
    let heard = 1
    const lookup = createSessionLookup(
      t.db,
      TEST_AUTH_SECRET,
      changesAt(() => heard),
    )
    const first = await lookup.find(bearer(user.token))
    expect(first?.profile.fullName).toBe('Kept Person')
    first!.profile.fullName = 'Changed by a caller'
    await t.db.update(profiles).set({ fullName: 'Changed Meanwhile' }).where(eq(profiles.id, user.id))
    // Nothing heard: the kept row, untouched by what a caller did to its copy.
    expect(await nameFound(lookup, user.token)).toBe('Kept Person')
    heard++
    expect(await nameFound(lookup, user.token)).toBe('Changed Meanwhile')
    // Each workspace asked for is a row of its own.
    expect((await lookup.find(bearer(user.token), 'no-such-workspace'))?.workspace).toBeNull()
  })

  it('keeps nothing while changes could be missed, nor a row read while a change arrived', async () => {
    const user = await t.signUp({ fullName: 'Not Kept' })
    const deaf = createSessionLookup(
      t.db,
      TEST_AUTH_SECRET,
      changesAt(() => null),
    )
    let heard = 0
    // A change between the start and the end of every read.
    const racing = createSessionLookup(
      t.db,
      TEST_AUTH_SECRET,
      changesAt(() => heard++),
    )
    // A session just made is read without keeping it.
    const steady = createSessionLookup(
      t.db,
      TEST_AUTH_SECRET,
      changesAt(() => 1),
    )
    expect((await steady.find(bearer(user.token), null, { keep: false }))?.profile.fullName).toBe('Not Kept')
    for (const lookup of [deaf, racing]) expect(await nameFound(lookup, user.token)).toBe('Not Kept')
    await t.db.update(profiles).set({ fullName: 'Read Again' }).where(eq(profiles.id, user.id))
    for (const lookup of [deaf, racing, steady]) expect(await nameFound(lookup, user.token)).toBe('Read Again')
  })

  it("still applies the session's time limits to a kept row", async () => {
    const user = await t.signUp()
    const lookup = createSessionLookup(
      t.db,
      TEST_AUTH_SECRET,
      changesAt(() => 1),
    )
    expect(await lookup.find(bearer(user.token))).not.toBeNull()
    const realNow = Date.now
    try {
      Date.now = () => realNow() + SESSION_IDLE_SECONDS * 1000 + 1000
      expect(await lookup.find(bearer(user.token))).toBeNull()
    } finally {
      Date.now = realNow
    }
  })

  it('hears of every write to each table a session is read from, on the embedded database only', async () => {
    const changes = t.database.sessionDataChanges
    if (t.database.kind === 'postgres') {
      // Processes sharing a server could not hear of each other's writes in time: nothing is kept.
      expect(changes).toBeNull()
      return
    }
    expect(changes?.seen()).not.toBeNull()
    const user = await t.signUp({ fullName: 'Heard Of' })
    const lookup = createSessionLookup(t.db, TEST_AUTH_SECRET, changes)
    // Each table with a column to write back unchanged.
    const tables = { sessions: 'id', users: 'id', profiles: 'id', workspaces: 'id', workspace_members: 'role', subscription_plans: 'id' }
    for (const [n, [table, column]] of Object.entries(tables).entries()) {
      expect(await nameFound(lookup, user.token)).toBe(n === 0 ? 'Heard Of' : `Quiet ${n - 1}`)
      // Written with the profiles' announcement off: the kept row is served, which proves it is kept.
      await t.db.execute(sql.raw('alter table "profiles" disable trigger "profiles_notify_session_data"'))
      await t.db
        .update(profiles)
        .set({ fullName: `Quiet ${n}` })
        .where(eq(profiles.id, user.id))
      await t.db.execute(sql.raw('alter table "profiles" enable trigger "profiles_notify_session_data"'))
      expect(await nameFound(lookup, user.token), table).toBe(n === 0 ? 'Heard Of' : `Quiet ${n - 1}`)
      // A statement that writes the table (even no row) is heard before its own answer.
      const before = changes!.seen()
      await t.db.execute(sql.raw(`update "${table}" set "${column}" = "${column}" where false`))
      expect(changes!.seen(), table).toBeGreaterThan(before!)
      expect(await nameFound(lookup, user.token), table).toBe(`Quiet ${n}`)
    }
  })
})
