import { afterAll, describe, expect, it } from 'vitest'
import { PHONE_MESSAGE } from '#common/phone.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { action, loader } from './admin-users.tsx'

// The admin's Users tab: the Edit User dialog's phone number and the table's Phone column (issue 27, item 13).

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Args = Parameters<typeof action>[0]
type Answer = { data: { ok: boolean; field?: string; error?: { description: string } }; init: { status?: number } | null }

const t: TestApp = await createTestApp()
afterAll(async () => {
  await t.close()
})
const admin = await t.signUp({ role: 'admin' })

const contextOf = (account: Account) => t.pageContext(account)

async function edit(fields: Record<string, string>): Promise<Answer> {
  const request = new Request(`${TEST_PUBLIC_URL}/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'edit-user', ...fields }),
  })
  return (await action({ request, params: {}, context: await contextOf(admin) } as unknown as Args)) as unknown as Answer
}

async function rowOf(email: string) {
  const request = new Request(`${TEST_PUBLIC_URL}/admin?search=${encodeURIComponent(email)}`)
  const tab = (await loader({ request, params: {}, context: await contextOf(admin) } as unknown as Parameters<
    typeof loader
  >[0])) as Awaited<ReturnType<typeof loader>>
  return tab.users.find((user) => user.email === email)
}

describe('the Users tab', () => {
  it('saves the phone number from Edit User and shows it in the table', async () => {
    const member = await t.signUp({ fullName: 'Phone Person' })
    expect((await rowOf(member.email))?.phone).toBeNull()
    const form = { userId: member.id, fullName: 'Phone Person', role: 'user', plan: 'free', credits: '5' }
    const saved = await edit({ ...form, phone: '+1 415 555 0123' })
    expect(saved.data.ok).toBe(true)
    expect((await rowOf(member.email))?.phone).toBe('+14155550123')

    const refused = await edit({ ...form, phone: '415 555 0123' })
    expect(refused.init?.status).toBe(400)
    expect(refused.data).toMatchObject({ ok: false, field: 'phone', error: { description: PHONE_MESSAGE } })
    expect((await rowOf(member.email))?.phone).toBe('+14155550123')

    expect((await edit({ ...form, phone: '' })).data.ok).toBe(true)
    expect((await rowOf(member.email))?.phone).toBeNull()
  })
})
