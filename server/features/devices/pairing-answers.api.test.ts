import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAIRING_ANSWER_PER_ADDRESS_RATE_LIMIT, PAIRING_ANSWER_RATE_LIMIT } from '#common/devices.ts'
import { auditLog, devicePairings, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import type { PairingMember } from './pairing-answerers.ts'

// Who may answer a pairing code on /connect (issue 27, item 8): a pending pairing belongs to the
// workspace of the first member who opens its code (or answers it), and only that workspace's
// members (Member role or above) see it, approve it or deny it; someone else who learns the code
// is told no device waits with it. Denials are in the workspace's activity. Approving and denying
// are limited per member and per client address.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Issued = { pairingId: string; userCode: string; pollSecret: string }

const NO_DEVICE = 'No device is waiting with this code. Check the code your device shows, or start again on the device.'

let t: TestApp
let owner: Account
let colleague: Account
let viewer: Account
let stranger: Account
let teamId: string

/** The member as /connect passes them: working in `workspaceId` (their personal workspace unless named). */
const as = (account: Account, workspaceId = account.id): PairingMember => ({
  id: account.id,
  email: account.email,
  twoFactorEnabled: false,
  workspace: { id: workspaceId },
})

async function issued(): Promise<Issued> {
  const response = await t.request('/api/devices/pairings', {
    body: { name: 'Work laptop runner', kind: 'runner', version: '2.0.0' },
    ip: t.freshIp(),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: Issued }).data
}

async function pollCode(pairing: Issued): Promise<string> {
  const response = await t.request(`/api/devices/pairings/${pairing.pairingId}/token`, {
    body: { pollSecret: pairing.pollSecret },
    ip: t.freshIp(),
  })
  return response.status === 200 ? 'TOKEN' : ((await response.json()) as { code: string }).code
}

const deny = (code: string, member: PairingMember, ip = t.freshIp()) => t.services.pairings.deny(code, member, ip)
const approve = (code: string, member: PairingMember, workspaceId: string, ip = t.freshIp()) =>
  t.services.pairings.approve(code, member, workspaceId, ip)

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp()
  colleague = await t.signUp()
  viewer = await t.signUp()
  stranger = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  const team = await t.request('/api/workspaces', { token: owner.token, body: { name: 'Field team' } })
  teamId = ((await team.json()) as { data: { id: string } }).data.id
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, teamId))
  await t.db.insert(workspaceMembers).values([
    { workspaceId: teamId, userId: colleague.id, role: 'member' },
    { workspaceId: teamId, userId: viewer.id, role: 'viewer' },
  ])
})
afterAll(async () => {
  await t.close()
})

describe('the workspace a pairing belongs to', () => {
  it('is the one its code was first opened in: someone else cannot see, deny or approve it; its members can', async () => {
    const pairing = await issued()
    expect(await t.services.pairings.preview(pairing.userCode, as(owner, teamId))).toMatchObject({ status: 'pending' })
    const [row] = await t.db.select().from(devicePairings).where(eq(devicePairings.id, pairing.pairingId))
    expect(row).toMatchObject({ status: 'pending', workspaceId: teamId, userId: null })

    // A signed-in member of another workspace who learned the code.
    expect(await t.services.pairings.preview(pairing.userCode, as(stranger))).toBeNull()
    await expect(deny(pairing.userCode, as(stranger))).rejects.toMatchObject({ status: 404, message: NO_DEVICE })
    await expect(approve(pairing.userCode, as(stranger), stranger.id)).rejects.toMatchObject({ status: 404, message: NO_DEVICE })
    // A viewer of the team may not answer for it either.
    expect(await t.services.pairings.preview(pairing.userCode, as(viewer, teamId))).toBeNull()
    await expect(deny(pairing.userCode, as(viewer, teamId))).rejects.toMatchObject({ status: 404, message: NO_DEVICE })
    expect(await pollCode(pairing)).toBe('PAIRING_PENDING')

    // A member of the team denies it; the team's activity says who.
    expect(await t.services.pairings.preview(pairing.userCode, as(colleague, teamId))).toMatchObject({ status: 'pending' })
    expect(await deny(pairing.userCode, as(colleague, teamId))).toEqual({ name: 'Work laptop runner' })
    expect(await pollCode(pairing)).toBe('PAIRING_DENIED')
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'device.deny'), eq(auditLog.targetId, pairing.pairingId)))
    expect(entry).toMatchObject({ workspaceId: teamId, actorId: colleague.id, summary: 'Denied Work laptop runner (local runner 2.0.0)' })
    // Afterwards it tells the stranger nothing either (not even that it was denied).
    expect(await t.services.pairings.preview(pairing.userCode, as(stranger))).toBeNull()
    await expect(deny(pairing.userCode, as(stranger))).rejects.toMatchObject({ status: 404 })
  })

  it('a member of it approves it, for it or another workspace of theirs; the stranger is still refused', async () => {
    const forTeam = await issued()
    await t.services.pairings.preview(forTeam.userCode, as(owner, teamId))
    await expect(approve(forTeam.userCode, as(stranger), stranger.id)).rejects.toMatchObject({ status: 404 })
    expect(await approve(forTeam.userCode, as(colleague, teamId), teamId)).toMatchObject({ workspace: { id: teamId } })
    expect(await pollCode(forTeam)).toBe('TOKEN')

    const forColleague = await issued()
    await t.services.pairings.preview(forColleague.userCode, as(owner, teamId))
    expect(await approve(forColleague.userCode, as(colleague, teamId), colleague.id)).toMatchObject({ workspace: { id: colleague.id } })
    const [row] = await t.db.select().from(devicePairings).where(eq(devicePairings.id, forColleague.pairingId))
    expect(row).toMatchObject({ status: 'approved', workspaceId: colleague.id, userId: colleague.id })
  })

  it('is the personal workspace of a member who opens it where they may not connect devices', async () => {
    const pairing = await issued()
    await t.services.pairings.preview(pairing.userCode, as(viewer, teamId))
    const [row] = await t.db.select().from(devicePairings).where(eq(devicePairings.id, pairing.pairingId))
    expect(row?.workspaceId).toBe(viewer.id)
    await expect(deny(pairing.userCode, as(owner, teamId))).rejects.toMatchObject({ status: 404 })
    expect(await deny(pairing.userCode, as(viewer, teamId))).toEqual({ name: 'Work laptop runner' })
  })

  it('is the denier’s, when nobody opened the code before: the denial is in their activity', async () => {
    const pairing = await issued()
    await deny(pairing.userCode, as(colleague, teamId))
    const [row] = await t.db.select().from(devicePairings).where(eq(devicePairings.id, pairing.pairingId))
    expect(row).toMatchObject({ status: 'denied', workspaceId: teamId })
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.targetId, pairing.pairingId))
    expect(entries).toEqual([expect.objectContaining({ action: 'device.deny', workspaceId: teamId, actorEmail: colleague.email })])
  })
})

describe('limits on answers', () => {
  it(`allows a member ${PAIRING_ANSWER_RATE_LIMIT.limit} approvals and denials a minute, then answers 429`, async () => {
    const member = await t.signUp()
    for (let i = 0; i < PAIRING_ANSWER_RATE_LIMIT.limit; i++) {
      const attempt = i % 2 === 0 ? deny('ABCD-2345', as(member)) : approve('ABCD-2345', as(member), member.id)
      await expect(attempt).rejects.toMatchObject({ status: 404 })
    }
    const message = `At most ${PAIRING_ANSWER_RATE_LIMIT.limit} device approvals or denials a minute. Please wait a moment and try again.`
    const pairing = await issued()
    await expect(approve(pairing.userCode, as(member), member.id)).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', message })
    await expect(deny(pairing.userCode, as(member))).rejects.toMatchObject({ status: 429, message })
    expect(await pollCode(pairing)).toBe('PAIRING_PENDING')
    // Another member is not held back by it.
    expect(await deny(pairing.userCode, as(stranger))).toEqual({ name: 'Work laptop runner' })
  })

  it(`allows one client address ${PAIRING_ANSWER_PER_ADDRESS_RATE_LIMIT.limit} a minute, whoever answers`, async () => {
    const ip = t.freshIp()
    const members = [await t.signUp(), await t.signUp(), await t.signUp()]
    for (let i = 0; i < PAIRING_ANSWER_PER_ADDRESS_RATE_LIMIT.limit; i++) {
      const member = members[i % members.length]!
      await expect(deny('ABCD-2345', as(member), ip)).rejects.toMatchObject({ status: 404 })
    }
    const message = `At most ${PAIRING_ANSWER_PER_ADDRESS_RATE_LIMIT.limit} device approvals or denials a minute from one address. Please retry later.`
    const fresh = await t.signUp()
    await expect(deny('ABCD-2345', as(fresh), ip)).rejects.toMatchObject({ status: 429, message })
    await expect(approve('ABCD-2345', as(fresh), fresh.id, ip)).rejects.toMatchObject({ status: 429, message })
    await expect(deny('ABCD-2345', as(fresh))).rejects.toMatchObject({ status: 404 })
  })
})
