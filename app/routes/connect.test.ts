import { afterAll, describe, expect, it } from 'vitest'
import { PAIRING_ANSWER_RATE_LIMIT } from '#common/devices.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'
import { action, loader } from './connect.tsx'

// /connect as the member uses it (issue 27, item 8): the first member to open a code makes the
// pairing theirs; another signed-in member who knows the code is told no device waits with it and
// cannot deny it; answers are limited per member (429 with the limit's words).

type Account = Awaited<ReturnType<TestApp['signUp']>>
type LoaderArgs = Parameters<typeof loader>[0]
type ActionArgs = Parameters<typeof action>[0]
type Answered = { data: { outcome: { kind: string } | null; error: string | null }; init: ResponseInit | null }

const t: TestApp = await createTestApp()
afterAll(async () => {
  await t.close()
})

const contextOf = (account: Account) => t.pageContext(account)

async function open(account: Account, code: string) {
  const request = new Request(`${TEST_PUBLIC_URL}/connect?code=${code}`)
  return loader({ request, params: {}, context: await contextOf(account) } as unknown as LoaderArgs)
}

async function answer(account: Account, fields: Record<string, string>): Promise<{ status: number; error: string | null; kind?: string }> {
  const request = new Request(`${TEST_PUBLIC_URL}/connect`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
  const result = (await action({ request, params: {}, context: await contextOf(account) } as unknown as ActionArgs)) as
    Answered | Answered['data']
  const body = 'init' in result ? result.data : result
  const status = 'init' in result ? (result.init?.status ?? 200) : 200
  return { status, error: body.error, kind: body.outcome?.kind }
}

async function pairingCode(): Promise<string> {
  const response = await t.request('/api/devices/pairings', {
    body: { name: 'Office PC', kind: 'extension', version: '1.0.0' },
    ip: t.freshIp(),
  })
  return ((await response.json()) as { data: { userCode: string } }).data.userCode
}

describe('/connect', () => {
  it('another member who knows the code sees no device and cannot deny it; the member who opened it can', async () => {
    const member = await t.signUp()
    const stranger = await t.signUp()
    const code = await pairingCode()
    expect((await open(member, code)).pairing).toMatchObject({ status: 'pending', name: 'Office PC' })

    expect((await open(stranger, code)).pairing).toBeNull()
    const refused = await answer(stranger, { intent: 'deny', code })
    expect(refused).toEqual({
      status: 404,
      error: 'No device is waiting with this code. Check the code your device shows, or start again on the device.',
      kind: undefined,
    })
    expect((await answer(stranger, { intent: 'approve', code, workspaceId: stranger.id })).status).toBe(404)

    expect(await answer(member, { intent: 'deny', code })).toMatchObject({ status: 200, kind: 'denied' })
  })

  it(`answers 429 after ${PAIRING_ANSWER_RATE_LIMIT.limit} approvals or denials in a minute`, async () => {
    const member = await t.signUp()
    for (let i = 0; i < PAIRING_ANSWER_RATE_LIMIT.limit; i++) {
      expect((await answer(member, { intent: i % 2 ? 'deny' : 'approve', code: 'ABCD-2345', workspaceId: member.id })).status).toBe(404)
    }
    const code = await pairingCode()
    expect(await answer(member, { intent: 'approve', code, workspaceId: member.id })).toEqual({
      status: 429,
      error: `At most ${PAIRING_ANSWER_RATE_LIMIT.limit} device approvals or denials a minute. Please wait a moment and try again.`,
      kind: undefined,
    })
    expect((await answer(member, { intent: 'deny', code })).status).toBe(429)
  })
})
