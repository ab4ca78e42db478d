import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN_SCOPES_MESSAGE,
  API_KEY_CREDENTIALS_MESSAGE,
  API_KEY_SESSION_ONLY_MESSAGE,
  MAX_ACTIVE_API_KEYS,
  missingScopeMessage,
} from '#common/api-keys.ts'
import { apiKeys } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { personalCaller } from '#server/testing/callers.ts'

type Member = Awaited<ReturnType<TestApp['signUp']>>
type Created = { id: string; name: string; prefix: string; createdAt: string; key: string }
type Listed = { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null }

let t: TestApp
let alice: Member
let bob: Member

beforeAll(async () => {
  t = await createTestApp()
  alice = await t.signUp({ email: 'alice@example.com', fullName: 'Alice Keys' })
  bob = await t.signUp({ email: 'bob@example.com', fullName: 'Bob Keys' })
})
afterAll(async () => {
  await t.close()
})

async function createKey(member: { token: string }, name = 'Desktop app'): Promise<Created> {
  const response = await t.request('/api/keys', { body: { name }, token: member.token })
  expect(response.status, await response.clone().text()).toBe(201)
  return ((await response.json()) as { data: Created }).data
}

async function me(token: string) {
  return t.request('/api/auth/me', { token })
}

describe('POST /api/keys', () => {
  it('returns the whole key once, in the documented format, and stores only its hash', async () => {
    const response = await t.request('/api/keys', { body: { name: '  Laptop  ' }, token: alice.token })
    expect(response.status).toBe(201)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.getSetCookie()).toEqual([])
    const { data } = (await response.json()) as { data: Created }
    expect(data.name).toBe('Laptop')
    expect(data.key).toMatch(/^ak_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/)
    expect(data.key.startsWith(`${data.prefix}_`)).toBe(true)
    expect(data.prefix).toMatch(/^ak_[0-9a-f]{8}$/)

    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, data.id))
    expect(row?.hash).toBe(createHash('sha256').update(data.key).digest('hex'))
    expect(JSON.stringify(row)).not.toContain(data.key)
  })

  it('validates the name (required, at most 60 characters)', async () => {
    for (const name of ['', '   ']) {
      const response = await t.request('/api/keys', { body: { name }, token: alice.token })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { message: string }).message).toBe('name: Name is required')
    }
    const long = await t.request('/api/keys', { body: { name: 'x'.repeat(61) }, token: alice.token })
    expect(long.status).toBe(400)
    expect(((await long.json()) as { message: string }).message).toBe('name: Name must be at most 60 characters.')
  })

  it('needs a signed-in member', async () => {
    expect((await t.request('/api/keys', { body: { name: 'x' } })).status).toBe(401)
    expect((await t.request('/api/keys')).status).toBe(401)
  })
})

describe('a key as Authorization: Bearer', () => {
  it('signs in as its member, with the same user object as a session, and sets no cookie', async () => {
    const { key } = await createKey(alice)
    const viaKey = await me(key)
    expect(viaKey.status).toBe(200)
    expect(viaKey.headers.getSetCookie()).toEqual([])
    const viaSession = await me(alice.token)
    expect(await viaKey.json()).toEqual(await viaSession.json())
    const { data } = (await (await me(key)).json()) as { data: { id: string; email: string } }
    expect(data).toMatchObject({ id: alice.id, email: 'alice@example.com' })
  })

  it("is that member's only: Bob's key is Bob", async () => {
    const { key } = await createKey(bob)
    const { data } = (await (await me(key)).json()) as { data: { id: string } }
    expect(data.id).toBe(bob.id)
  })

  it('refuses a forged key that reuses a real prefix, and a malformed one (401)', async () => {
    const { key, prefix } = await createKey(alice)
    const forged = `${prefix}_${'A'.repeat(43)}`
    expect(forged).not.toBe(key)
    expect((await me(forged)).status).toBe(401)
    expect((await me(`${key}x`)).status).toBe(401)
    expect((await me('ak_nothing')).status).toBe(401)
  })

  it('decides alone: an unknown key beside a valid session cookie is not signed in', async () => {
    const response = await t.request('/api/auth/me', { token: `ak_00000000_${'B'.repeat(43)}`, cookie: alice.cookie })
    expect(response.status).toBe(401)
  })

  it('records when it was last used, at most once a minute', async () => {
    const created = await createKey(alice, 'Usage')
    const lastUsed = async () => (await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)))[0]?.lastUsedAt ?? null
    expect(await lastUsed()).toBeNull()
    await me(created.key)
    const first = await lastUsed()
    expect(first).toBeInstanceOf(Date)
    await me(created.key)
    expect((await lastUsed())?.getTime()).toBe(first?.getTime())

    // A minute later the next request moves it on.
    await t.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 61_000) })
      .where(eq(apiKeys.id, created.id))
    await me(created.key)
    expect(Date.now() - ((await lastUsed())?.getTime() ?? 0)).toBeLessThan(5_000)
  })
})

describe('GET /api/keys', () => {
  it("lists the member's keys without the secret or the hash", async () => {
    const created = await createKey(bob, 'Listed')
    const response = await t.request('/api/keys', { token: bob.token })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain(created.key)
    expect(text).not.toContain('hash')
    const { data } = JSON.parse(text) as { data: Listed[] }
    const listed = data.find((key) => key.id === created.id)
    expect(listed).toEqual({
      id: created.id,
      name: 'Listed',
      prefix: created.prefix,
      scopes: ['automations'],
      createdAt: created.createdAt,
      lastUsedAt: null,
      revokedAt: null,
    })
    // Only Bob's keys.
    const [aliceKey] = await t.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, alice.id))
    expect(data.some((key) => key.id === aliceKey?.id)).toBe(false)
  })

  it('works with a key (reading is allowed)', async () => {
    const { key } = await createKey(bob, 'Reader')
    expect((await t.request('/api/keys', { token: key })).status).toBe(200)
  })
})

describe('DELETE /api/keys/:id', () => {
  it('revokes: the key stops working at once (401) and is listed as revoked', async () => {
    const created = await createKey(alice, 'Short-lived')
    expect((await me(created.key)).status).toBe(200)
    const response = await t.request(`/api/keys/${created.id}`, { method: 'DELETE', token: alice.token })
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as { data: Listed }
    expect(data.revokedAt).toEqual(expect.any(String))
    const refused = await me(created.key)
    expect(refused.status).toBe(401)
    // RFC 6750: the token itself is refused, so clients (the SDK) can tell it from a wrong secret on a public route.
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    expect((await t.request('/api/auth/me')).headers.get('www-authenticate')).toBeNull()

    const list = (await (await t.request('/api/keys', { token: alice.token })).json()) as { data: Listed[] }
    expect(list.data.find((key) => key.id === created.id)?.revokedAt).toBe(data.revokedAt)
  })

  it("answers 404 for another member's key and leaves it working", async () => {
    const bobs = await createKey(bob, 'Not yours')
    const response = await t.request(`/api/keys/${bobs.id}`, { method: 'DELETE', token: alice.token })
    expect(response.status).toBe(404)
    expect(((await response.json()) as { message: string }).message).toBe('API key not found.')
    expect((await me(bobs.key)).status).toBe(200)
    expect((await t.request('/api/keys/not-a-uuid', { method: 'DELETE', token: alice.token })).status).toBe(404)
  })
})

describe('a leaked key cannot take over the account', () => {
  it('cannot create or revoke keys, nor change the password (403)', async () => {
    const { key, id } = await createKey(alice, 'Leaked')
    const create = await t.request('/api/keys', { body: { name: 'Another' }, token: key })
    expect(create.status).toBe(403)
    expect(((await create.json()) as { message: string }).message).toBe(API_KEY_CREDENTIALS_MESSAGE)

    const revoke = await t.request(`/api/keys/${id}`, { method: 'DELETE', token: key })
    expect(revoke.status).toBe(403)
    expect((await me(key)).status).toBe(200)

    const password = await t.request('/api/auth/change-password', {
      method: 'PUT',
      body: { currentPassword: alice.password, newPassword: 'a-brand-new-password' },
      token: key,
    })
    expect(password.status).toBe(403)
    expect(((await password.json()) as { message: string }).message).toBe(API_KEY_CREDENTIALS_MESSAGE)
    // The session still signs in with the old password's session: nothing changed.
    expect((await me(alice.token)).status).toBe(200)
  })
})

describe('limits', () => {
  it(`refuses a member's ${MAX_ACTIVE_API_KEYS + 1}st active key (409), and a revoked key frees a place`, async () => {
    const carol = await t.signUp({ email: 'carol@example.com' })
    const created: Created[] = []
    for (let i = 1; i <= MAX_ACTIVE_API_KEYS; i++) created.push(await createKey(carol, `Key ${i}`))
    const refused = await t.request('/api/keys', { body: { name: 'One too many' }, token: carol.token })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { message: string }).message).toBe(
      'You can have at most 20 active API keys. Revoke one you no longer use first.',
    )
    const first = created[0]
    if (!first) throw new Error('no key was created')
    expect((await t.request(`/api/keys/${first.id}`, { method: 'DELETE', token: carol.token })).status).toBe(200)
    expect((await t.request('/api/keys', { body: { name: 'Replacement' }, token: carol.token })).status).toBe(201)
  })
})

describe('rate limit', () => {
  it("counts a key's requests against its member's per-user budget", async () => {
    const limited = await createTestApp({ apiRateLimit: 3 })
    try {
      const dave = await limited.signUp({ email: 'dave@example.com' })
      // Created directly: the API's own budget would count this request too.
      const { key } = await limited.services.apiKeys.create(personalCaller(dave), 'Script', ['automations'])
      const get = (token: string, ip: string) => limited.request('/api/auth/me', { token, ip })
      expect((await get(key, '203.0.113.21')).status).toBe(200)
      expect((await get(dave.token, '203.0.113.22')).status).toBe(200)
      expect((await get(key, '203.0.113.23')).status).toBe(200)
      const refused = await get(key, '203.0.113.24')
      expect(refused.status).toBe(429)
      expect((await get(dave.token, '203.0.113.25')).status).toBe(429)
      // Anonymous clients at those addresses have budgets of their own.
      expect((await limited.request('/api/auth/me', { ip: '203.0.113.21' })).status).toBe(401)
    } finally {
      await limited.close()
    }
  })
})

describe('scopes', () => {
  it('a key has the automations scope unless asked otherwise, and can use nothing outside its scopes', async () => {
    const created = await createKey(alice, 'Default scope')
    const listed = (await (await t.request('/api/keys', { token: alice.token })).json()) as { data: (Listed & { scopes: string[] })[] }
    expect(listed.data.find((key) => key.id === created.id)?.scopes).toEqual(['automations'])
    expect((await t.request('/api/automations', { token: created.key })).status).toBe(200)
  })

  it('only an admin can give a key an admin scope', async () => {
    const refused = await t.request('/api/keys', { body: { name: 'Sneaky', scopes: ['admin:read'] }, token: alice.token })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { message: string }).message).toBe(ADMIN_SCOPES_MESSAGE)
    const unknown = await t.request('/api/keys', { body: { name: 'Odd', scopes: ['everything'] }, token: alice.token })
    expect(unknown.status).toBe(400)
    const none = await t.request('/api/keys', { body: { name: 'Empty', scopes: [] }, token: alice.token })
    expect(none.status).toBe(400)
  })

  it("an admin's key does what its scopes say, and never manages users, settings, keys or passwords", async () => {
    const root = await t.signUp({ role: 'admin' })
    const reader = await t.request('/api/keys', { body: { name: 'Reader', scopes: ['admin:read'] }, token: root.token })
    const { key } = ((await reader.json()) as { data: Created }).data
    expect((await t.request('/api/users', { token: key })).status).toBe(200)
    const write = await t.request('/api/blog', { body: { title: 'By a reader key' }, token: key })
    expect(write.status).toBe(403)
    expect(((await write.json()) as { message: string }).message).toBe(missingScopeMessage('admin:content'))
    // The finding of the attack pass: a key resetting its own admin's password.
    const takeover = await t.request(`/api/users/${root.id}/reset-password`, { body: { newPassword: 'taken-over-123' }, token: key })
    expect(takeover.status).toBe(403)
    expect(((await takeover.json()) as { message: string }).message).toBe(API_KEY_SESSION_ONLY_MESSAGE)
    expect((await me(root.token)).status).toBe(200)
    const promote = await t.request('/api/users', {
      body: { email: 'made-by-key@example.com', password: 'a-long-password', role: 'admin' },
      token: key,
    })
    expect(promote.status).toBe(403)
  })
})

describe('a password change', () => {
  it('revokes every API key of the account unless the member keeps them', async () => {
    const carl = await t.signUp({ password: 'first-password-1' })
    const kept = await createKey(carl, 'Kept')
    const keep = await t.request('/api/auth/change-password', {
      method: 'PUT',
      body: { currentPassword: 'first-password-1', newPassword: 'second-password-2', revokeApiKeys: false },
      token: carl.token,
    })
    expect(keep.status).toBe(200)
    const { data } = (await keep.json()) as { data: { token: string; revokedApiKeys: number } }
    expect(data.revokedApiKeys).toBe(0)
    expect((await me(kept.key)).status).toBe(200)

    const revoke = await t.request('/api/auth/change-password', {
      method: 'PUT',
      body: { currentPassword: 'second-password-2', newPassword: 'third-password-3' },
      token: data.token,
    })
    expect(revoke.status).toBe(200)
    expect(((await revoke.json()) as { data: { revokedApiKeys: number } }).data.revokedApiKeys).toBe(1)
    expect((await me(kept.key)).status).toBe(401)
  })
})

describe('pages', () => {
  it('take the session cookie only: an API key or a session token in Authorization signs nobody in on a page', async () => {
    const seen: (string | null)[] = []
    const pages = await createTestApp({
      pages: async (c) => {
        seen.push(c.get('user')?.id ?? null)
        return c.text('page')
      },
    })
    try {
      const dana = await pages.signUp()
      const created = await pages.request('/api/keys', { body: { name: 'Page key' }, token: dana.token })
      const { key } = ((await created.json()) as { data: Created }).data
      await pages.request('/settings', { token: key })
      await pages.request('/settings', { token: dana.token })
      await pages.request('/settings', { cookie: dana.cookie })
      expect(seen).toEqual([null, null, dana.id])
    } finally {
      await pages.close()
    }
  })
})
