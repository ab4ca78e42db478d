import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PHONE_MESSAGE } from '#common/phone.ts'
import { profiles } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// The profile's phone number through the API (issue 27, item 13; spec section 3: the admin's user
// list has `phone`): the member's own PUT /api/auth/profile, the admin's PUT /api/users/:id, and
// GET /api/users. `phone_number` and `phoneNumber` are accepted as aliases of `phone`.

let t: TestApp
let admin: Awaited<ReturnType<TestApp['signUp']>>
beforeAll(async () => {
  t = await createTestApp()
  admin = await t.signUp({ role: 'admin' })
})
afterAll(async () => {
  await t.close()
})

type Me = { data: { profile: { phone: string | null } } }
type AdminUser = { id: string; phone: string | null; profile: { phone: string | null } }

const putProfile = (token: string, body: unknown) => t.request('/api/auth/profile', { method: 'PUT', token, body })
const phoneOf = async (token: string) => ((await (await t.request('/api/auth/me', { token })).json()) as Me).data.profile.phone

describe("a member's own phone number", () => {
  it('round-trips through PUT /api/auth/profile with the alias, normalised to E.164', async () => {
    const member = await t.signUp()
    expect(await phoneOf(member.token)).toBeNull()
    const saved = await putProfile(member.token, { phone_number: '+1 (415) 555-0123' })
    expect(saved.status).toBe(200)
    expect(((await saved.json()) as Me).data.profile.phone).toBe('+14155550123')
    expect(await phoneOf(member.token)).toBe('+14155550123')

    expect((await putProfile(member.token, { phoneNumber: '+442071838750' })).status).toBe(200)
    expect(await phoneOf(member.token)).toBe('+442071838750')
    // Other fields leave it alone; null clears it.
    expect((await putProfile(member.token, { fullName: 'Someone Else' })).status).toBe(200)
    expect(await phoneOf(member.token)).toBe('+442071838750')
    expect((await putProfile(member.token, { phone: null })).status).toBe(200)
    expect(await phoneOf(member.token)).toBeNull()
  })

  it('refuses a number that is not E.164 with 400 naming the field, and keeps the stored one', async () => {
    const member = await t.signUp()
    await putProfile(member.token, { phone: '+14155550123' })
    for (const phone of ['4155550123', '+0123456789', 'call me', 12345]) {
      const response = await putProfile(member.token, { phone_number: phone })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ message: `phone: ${PHONE_MESSAGE}`, code: 'VALIDATION_ERROR' })
    }
    expect(await phoneOf(member.token)).toBe('+14155550123')
  })

  it('the database keeps anything else out too', async () => {
    const member = await t.signUp()
    await expect(t.db.update(profiles).set({ phone: '555-0123' }).where(eq(profiles.id, member.id))).rejects.toThrow()
  })
})

describe("the admin's user list and edit", () => {
  it('lists `phone` for each user and changes it through PUT /api/users/:id with an alias', async () => {
    const member = await t.signUp()
    const admins = { token: admin.token }
    const edited = await t.request(`/api/users/${member.id}`, { method: 'PUT', ...admins, body: { phone_number: '+49 30 123456' } })
    expect(edited.status).toBe(200)
    expect(((await edited.json()) as { data: AdminUser }).data).toMatchObject({ id: member.id, phone: '+4930123456' })

    const listed = await t.request(`/api/users?search=${encodeURIComponent(member.email)}`, admins)
    const users = ((await listed.json()) as { data: AdminUser[] }).data
    expect(users).toHaveLength(1)
    expect(users[0]).toMatchObject({ phone: '+4930123456', profile: { phone: '+4930123456' } })
    expect(await phoneOf(member.token)).toBe('+4930123456')

    const refused = await t.request(`/api/users/${member.id}`, { method: 'PUT', ...admins, body: { phoneNumber: '030 123456' } })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toBe(`phone: ${PHONE_MESSAGE}`)

    const cleared = await t.request(`/api/users/${member.id}`, { method: 'PUT', ...admins, body: { phone: '' } })
    expect(((await cleared.json()) as { data: AdminUser }).data.phone).toBeNull()
  })

  it('creates a user with a phone number', async () => {
    const created = await t.request('/api/users', {
      token: admin.token,
      body: { email: 'with-phone@example.com', password: 'a-good-password', phoneNumber: '+1 415 555 0199' },
    })
    expect(created.status).toBe(201)
    expect(((await created.json()) as { data: AdminUser }).data).toMatchObject({ phone: '+14155550199', profile: { role: 'user' } })
  })
})
