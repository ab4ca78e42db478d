import { and, eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { automationRuns, automations, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createScheduler } from '#server/features/runs/scheduler.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// A local runner runs only automations its owner saved or approved (docs/decisions/032, amended by
// issue 27): a colleague cannot point an automation at someone else's runner, an edit by anyone
// else leaves the approval behind, and the schedule, the queue and the runner's claim refuse the
// automation until the runner's owner approves the current version.

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Body = { data: Record<string, unknown> & { id: string }; message?: string; code?: string; issues?: { path: string }[] }

const logger = pino({ level: 'silent' })
const STEPS = [{ type: 'navigate', url: 'https://example.com/' }]

let t: TestApp
let ada: Account
let bob: Account
let teamId: string
let adaRunner: { id: string; token: string }
let bobRunner: { id: string; token: string }
let bobKey: string

async function call(who: Account | { token: string }, path: string, init: { method?: string; body?: unknown } = {}) {
  const response = await t.request(path, { ...init, token: who.token, headers: { 'x-workspace-id': teamId } })
  return { status: response.status, body: (await response.json()) as Body }
}

/** A local runner of `owner` in the team, with its device token. */
async function pairRunner(owner: Account, name: string) {
  const pairing = (await (
    await t.request('/api/devices/pairings', { body: { name, kind: 'runner', version: '0.1.0' }, ip: t.freshIp() })
  ).json()) as { data: { pairingId: string; userCode: string; pollSecret: string } }
  await t.services.pairings.approve(
    pairing.data.userCode,
    { id: owner.id, email: owner.email, twoFactorEnabled: false },
    teamId,
    t.freshIp(),
  )
  const collected = (await (
    await t.request(`/api/devices/pairings/${pairing.data.pairingId}/token`, { body: { pollSecret: pairing.data.pollSecret } })
  ).json()) as { data: { token: string; device: { id: string } } }
  return { id: collected.data.device.id, token: collected.data.token }
}

const tick = () => createScheduler({ db: t.db, runs: t.services.runs, logger }).tick(new Date(Date.now() + 25 * 3600_000))
const runsOf = (automationId: string) => t.db.select().from(automationRuns).where(eq(automationRuns.automationId, automationId))
const claim = (runner: { token: string }) => call(runner, '/api/runs/claim', { body: {} })

/** A scheduled automation of `who` in the team, set to run on `deviceId`. */
const scheduledOn = (who: Account | { token: string }, deviceId: string | null, name = 'Nightly intranet report') =>
  call(who, '/api/automations', { body: { name, schedule: '0 2 * * *', deviceId, steps: STEPS } })

beforeAll(async () => {
  t = await createTestApp()
  ada = await t.signUp({ email: `ada-${Date.now()}@example.com`, fullName: 'Ada Lovelace' })
  bob = await t.signUp({ email: `bob-${Date.now()}@example.com`, fullName: 'Bob Builder' })
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, ada.id))
  const team = await t.request('/api/workspaces', { token: ada.token, body: { name: 'Night shift' } })
  teamId = ((await team.json()) as { data: { id: string } }).data.id
  // A team is a customer of its own: on Business, it connects any number of devices and makes trigger URLs.
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 100 }).where(eq(workspaces.id, teamId))
  await t.db.insert(workspaceMembers).values({ workspaceId: teamId, userId: bob.id, role: 'member' })
  adaRunner = await pairRunner(ada, 'Ada’s office PC')
  bobRunner = await pairRunner(bob, 'Bob’s laptop')
  const key = await t.request('/api/keys', { token: bob.token, headers: { 'x-workspace-id': teamId }, body: { name: 'Bob’s script' } })
  bobKey = ((await key.json()) as { data: { key: string } }).data.key
})
afterAll(async () => {
  await t?.close()
})
// Earlier tests' schedules come due again at the same tick: each test counts only its own.
beforeEach(async () => {
  await t.db.update(automations).set({ enabled: false }).where(eq(automations.workspaceId, teamId))
})

const NOT_ADAS_TO_CHOOSE = `“Ada’s office PC” is Ada Lovelace (${'{ada}'})'s local runner: only they can choose it for an automation. Choose one of your own runners or the cloud, or ask them to choose their runner.`
const notYours = () => NOT_ADAS_TO_CHOOSE.replace('{ada}', ada.email)

describe('choosing a local runner', () => {
  it('approves the version its owner saves, on their own runner, with a session or their runner’s own token', async () => {
    const saved = await scheduledOn(ada, adaRunner.id)
    expect(saved.status, saved.body.message).toBe(201)
    expect(saved.body.data).toMatchObject({ deviceId: adaRunner.id, version: 1, deviceApprovedVersion: 1 })
    // A device token acts as its member: Ada's runner may set automations to run on itself.
    const byDevice = await scheduledOn(adaRunner, adaRunner.id, 'Saved from the runner')
    expect(byDevice.status, byDevice.body.message).toBe(201)
    expect(byDevice.body.data).toMatchObject({ deviceApprovedVersion: 1 })
  })

  it('refuses a colleague who newly points an automation at someone else’s runner, whatever their credential', async () => {
    for (const who of [bob, { token: bobKey }, bobRunner]) {
      const refused = await scheduledOn(who, adaRunner.id)
      expect(refused.status).toBe(403)
      expect(refused.body).toMatchObject({ code: 'RUNNER_NOT_YOURS', message: notYours(), issues: [{ path: 'deviceId' }] })
    }
    // Nor by changing an automation of theirs that runs in the cloud or on their own runner.
    const own = await scheduledOn(bob, bobRunner.id)
    expect(own.body.data).toMatchObject({ deviceApprovedVersion: 1 })
    const moved = await call(bob, `/api/automations/${own.body.data.id}`, { method: 'PUT', body: { deviceId: adaRunner.id } })
    expect(moved.status).toBe(403)
    expect(moved.body.message).toBe(notYours())
    const [unchanged] = await t.db.select().from(automations).where(eq(automations.id, own.body.data.id))
    expect(unchanged).toMatchObject({ deviceId: bobRunner.id, version: 1 })
  })

  it('lists only the caller’s own runners in the builder, and the one an automation already names for what it is', async () => {
    const caller = { id: bob.id, workspace: { id: teamId, role: 'member' as const } }
    expect(await t.services.devices.runnersFor(caller)).toEqual([
      { id: bobRunner.id, name: 'Bob’s laptop', owner: bob.email, mine: true, connected: true },
    ])
    expect(await t.services.devices.runnersFor(caller, adaRunner.id)).toEqual([
      { id: adaRunner.id, name: 'Ada’s office PC', owner: ada.email, mine: false, connected: true },
      { id: bobRunner.id, name: 'Bob’s laptop', owner: bob.email, mine: true, connected: true },
    ])
  })

  it('copies the runner only for its owner: a colleague’s copy runs in the cloud', async () => {
    const source = await scheduledOn(ada, adaRunner.id)
    const bobsCopy = await call(bob, `/api/automations/${source.body.data.id}/duplicate`, { method: 'POST' })
    expect(bobsCopy.status, bobsCopy.body.message).toBe(201)
    expect(bobsCopy.body.data).toMatchObject({ deviceId: null, deviceApprovedVersion: null })
    const adasCopy = await call(ada, `/api/automations/${source.body.data.id}/duplicate`, { method: 'POST' })
    expect(adasCopy.body.data).toMatchObject({ deviceId: adaRunner.id, deviceApprovedVersion: 1 })
  })
})

describe('after a colleague changes an automation that runs on someone’s runner', () => {
  async function editedByBob() {
    const saved = await scheduledOn(ada, adaRunner.id)
    const id = saved.body.data.id
    // Bob keeps the runner (the builder sends it back) and changes the steps: allowed, but not approved.
    const edited = await call(bob, `/api/automations/${id}`, {
      method: 'PUT',
      body: { deviceId: adaRunner.id, steps: [{ type: 'navigate', url: 'http://192.168.1.10/admin' }] },
    })
    expect(edited.status, edited.body.message).toBe(200)
    expect(edited.body.data).toMatchObject({ version: 2, deviceApprovedVersion: 1, deviceId: adaRunner.id })
    return id
  }
  const waits = () =>
    `“Nightly intranet report” (version 2) waits for Ada Lovelace (${ada.email})'s approval: it runs on their local runner “Ada’s office PC”, which runs only what they saved or approved. They approve it on the automation's page.`

  it('the schedule records the refusal once instead of queuing it, and the runner gets nothing', async () => {
    const id = await editedByBob()
    expect((await tick()).refused).toBeGreaterThanOrEqual(1)
    const [refused, ...rest] = await runsOf(id)
    expect(rest).toEqual([])
    expect(refused).toMatchObject({ status: 'failed', error: waits(), startedAt: null, deviceId: null })
    expect((await claim(adaRunner)).body.data).toBeNull()
    // Once per streak: the next time is skipped without another row.
    await t.db
      .update(automations)
      .set({ nextRunAt: new Date(Date.now() - 1000) })
      .where(eq(automations.id, id))
    await tick()
    expect(await runsOf(id)).toHaveLength(1)
  })

  it('queuing it for the runner by hand is refused in the one place every queuing passes through', async () => {
    const id = await editedByBob()
    const asBob = {
      id: bob.id,
      email: bob.email,
      emailVerified: true,
      role: 'user' as const,
      workspace: { id: teamId, role: 'member' as const },
    }
    const device = { id: adaRunner.id, name: 'Ada’s office PC' }
    // Not in Bob's name (Ada's runner reports as Ada), and not this version even in Ada's.
    await expect(t.services.runs.start(id, asBob, { runner: 'client', trigger: 'manual', device })).rejects.toMatchObject({
      status: 409,
      code: 'RUNNER_NOT_APPROVED',
      message: `Only Ada Lovelace (${ada.email}) can start runs on their local runner “Ada’s office PC”.`,
    })
    const asAda = { ...asBob, id: ada.id, email: ada.email }
    await expect(t.services.runs.start(id, asAda, { runner: 'client', trigger: 'schedule', device })).rejects.toMatchObject({
      status: 409,
      message: waits(),
    })
    expect(await runsOf(id)).toEqual([])
    // Ada starting it on her runner herself ("Run on …") chooses the version she starts; her runner takes that one up.
    const byAda = await t.services.runs.start(id, asAda, { runner: 'client', trigger: 'manual', device: { id: adaRunner.id } })
    expect(byAda).toMatchObject({ status: 'queued', deviceId: adaRunner.id, userId: ada.id, creditsCharged: 0 })
    expect(byAda.log[0]?.message).toBe('Queued for the local runner “Ada’s office PC”.')
    const taken = await claim(adaRunner)
    expect(taken.body.data).toMatchObject({ id: byAda.id, status: 'running' })
    await call(adaRunner, `/api/runs/${byAda.id}/finish`, { body: { status: 'succeeded' } })
  })

  it('"Run on …": a member queues a run for their own runner (no credits), never for a colleague’s or an unknown one', async () => {
    const id = await editedByBob()
    const mine = await call(bob, `/api/automations/${id}/runs`, { body: { deviceId: bobRunner.id } })
    expect(mine.status, mine.body.message).toBe(201)
    expect(mine.body.data).toMatchObject({ status: 'queued', runner: 'client', trigger: 'manual', creditsCharged: 0 })
    const theirs = await call(bob, `/api/automations/${id}/runs`, { body: { deviceId: adaRunner.id } })
    expect(theirs.status).toBe(409)
    expect(theirs.body.message).toBe(`Only Ada Lovelace (${ada.email}) can start runs on their local runner “Ada’s office PC”.`)
    const unknown = await call(bob, `/api/automations/${id}/runs`, { body: { deviceId: '00000000-0000-4000-8000-000000000000' } })
    expect(unknown.status).toBe(404)
    expect((await call(bob, `/api/automations/${id}/runs`, { body: { deviceId: 'not-an-id' } })).body.message).toBe(
      'deviceId: must be the id of one of your local runners',
    )
    // Bob's runner takes it up: the version Bob started.
    expect((await claim(bobRunner)).body.data).toMatchObject({ id: mine.body.data.id, status: 'running' })
    await call(bobRunner, `/api/runs/${mine.body.data.id}/finish`, { body: { status: 'succeeded' } })
  })

  it('run now and its trigger URL run it in the cloud in the name of whoever started it, never on the runner', async () => {
    const id = await editedByBob()
    const byHand = await call(bob, `/api/automations/${id}/runs`, { body: { where: 'cloud' } })
    expect(byHand.status, byHand.body.message).toBe(201)
    expect(byHand.body.data).toMatchObject({ runner: 'cloud', status: 'queued' })
    const trigger = await call(bob, `/api/automations/${id}/trigger`, { method: 'POST' })
    expect(trigger.status, trigger.body.message).toBe(201)
    const fired = await t.request(new URL(String(trigger.body.data.url)).pathname, { body: {} })
    expect(fired.status, await fired.clone().text()).toBe(202)
    const runs = await runsOf(id)
    expect(runs.map((run) => [run.runner, run.deviceId, run.userId])).toEqual([
      ['cloud', null, bob.id],
      ['cloud', null, bob.id],
    ])
    expect((await claim(adaRunner)).body.data).toBeNull()
  })

  it('the runner refuses, at its claim, a run queued from a version its owner has not approved', async () => {
    const saved = await scheduledOn(ada, adaRunner.id)
    const id = saved.body.data.id
    await tick()
    const [queued] = await runsOf(id)
    expect(queued).toMatchObject({ status: 'queued', deviceId: adaRunner.id, userId: ada.id, automationVersion: 1 })
    // Bob changes it while the run waits for Ada's runner: the queued run is not run on her machine.
    await call(bob, `/api/automations/${id}`, { method: 'PUT', body: { steps: [{ type: 'navigate', url: 'http://10.0.0.5/' }] } })
    const counted = await t.services.runs.runsThisMonth(teamId)
    expect((await claim(adaRunner)).body.data).toBeNull()
    const [refused] = await runsOf(id)
    expect(refused).toMatchObject({ status: 'failed', startedAt: null, error: waits() })
    expect(refused?.log.at(-1)?.message).toBe(`Not run on this runner: ${waits()}`)
    // A refused run does not count against the month.
    expect(await t.services.runs.runsThisMonth(teamId)).toBe(counted - 1)
  })

  it('the runner refuses runs queued before approvals, or in someone else’s name', async () => {
    const saved = await scheduledOn(ada, adaRunner.id)
    const id = saved.body.data.id
    const queued = (userId: string, automationVersion: number | null) =>
      t.db
        .insert(automationRuns)
        .values({
          automationId: id,
          automationName: 'Nightly intranet report',
          workspaceId: teamId,
          userId,
          status: 'queued',
          trigger: 'schedule',
          runner: 'client',
          steps: STEPS as never,
          deviceId: adaRunner.id,
          automationVersion,
        })
        .returning()
    const [legacy] = await queued(ada.id, null)
    const [inBobsName] = await queued(bob.id, 1)
    expect((await claim(adaRunner)).body.data).toBeNull()
    const [first, second] = await Promise.all(
      [legacy?.id, inBobsName?.id].map(async (runId) => (await t.db.select().from(automationRuns).where(eq(automationRuns.id, runId!)))[0]),
    )
    expect(first).toMatchObject({
      status: 'failed',
      error: 'It was queued before local runners ran only what their owner approved: the next scheduled run takes the approved version.',
    })
    expect(second).toMatchObject({
      status: 'failed',
      error: `Only Ada Lovelace (${ada.email})'s runs go to their local runner “Ada’s office PC”.`,
    })
  })
})

describe('approving the current version', () => {
  it('only the runner’s owner approves, the version they saw; then the schedule queues it and the runner runs it as theirs', async () => {
    const saved = await scheduledOn(ada, adaRunner.id)
    const id = saved.body.data.id
    await call(bob, `/api/automations/${id}`, { method: 'PUT', body: { description: 'Also the weekend' } })

    const byBob = await call(bob, `/api/automations/${id}/runner-approval`, { body: { version: 2 } })
    expect(byBob.status).toBe(403)
    expect(byBob.body).toMatchObject({
      code: 'RUNNER_NOT_YOURS',
      message: `Only Ada Lovelace (${ada.email}), whose local runner “Ada’s office PC” it is, can approve what runs on it.`,
    })
    const stale = await call(ada, `/api/automations/${id}/runner-approval`, { body: { version: 1 } })
    expect(stale.status).toBe(409)
    expect(stale.body.message).toBe(
      '“Nightly intranet report” was changed meanwhile (it is version 2 now): look at it again before approving it.',
    )
    expect((await call(ada, `/api/automations/${id}/runner-approval`, { body: { version: 'two' } })).status).toBe(400)

    const approved = await call(ada, `/api/automations/${id}/runner-approval`, { body: { version: 2 } })
    expect(approved.status, approved.body.message).toBe(200)
    expect(approved.body.data).toMatchObject({ version: 2, deviceApprovedVersion: 2 })

    expect((await tick()).started).toBeGreaterThanOrEqual(1)
    const claimed = await claim(adaRunner)
    expect(claimed.body.data).toMatchObject({ automationId: id, status: 'running', runner: 'client', trigger: 'schedule' })
    const runId = claimed.body.data.id
    const finished = await call(adaRunner, `/api/runs/${runId}/finish`, { body: { status: 'succeeded', actionsPerformed: 1 } })
    expect(finished.status, finished.body.message).toBe(200)
    const [run] = await t.db.select().from(automationRuns).where(eq(automationRuns.id, runId))
    expect(run).toMatchObject({ status: 'succeeded', userId: ada.id, deviceId: adaRunner.id, automationVersion: 2 })

    const activity = await t.services.audit.listForWorkspace(teamId, { page: 1, limit: 50 })
    expect(activity.items.find((entry) => entry.action === 'automation.runner-approve' && entry.targetId === id)).toMatchObject({
      actorId: ada.id,
      summary: 'Approved version 2 of Nightly intranet report to run on the local runner “Ada’s office PC”',
    })
  })

  it('an applied fix keeps the owner’s approval current when it was, and never approves a colleague’s change', async () => {
    const click = { type: 'click', target: [{ by: 'css', selector: '#go' }] }
    const saved = await call(ada, '/api/automations', {
      body: { name: 'Fix me', schedule: '0 2 * * *', deviceId: adaRunner.id, steps: [...STEPS, click] },
    })
    const id = saved.body.data.id
    const asAda = {
      id: ada.id,
      email: ada.email,
      emailVerified: true,
      role: 'user' as const,
      workspace: { id: teamId, role: 'member' as const },
    }
    const fix = (before: unknown) =>
      t.services.automations.applyTarget(id, asAda, {
        index: 1,
        before: before as never,
        target: [{ by: 'role', role: 'button', name: 'Go' }],
      })
    const fixed = await fix(click)
    expect(fixed).toMatchObject({ version: 2, deviceApprovedVersion: 2 })
    await call(bob, `/api/automations/${id}`, { method: 'PUT', body: { description: 'Bob was here' } })
    const again = await fix(fixed.steps[1])
    expect(again).toMatchObject({ version: 4, deviceApprovedVersion: 2 })
  })

  it('the runner’s owner approves by saving what they saw in the builder; other saves keep only a current approval current', async () => {
    const saved = await scheduledOn(ada, adaRunner.id)
    const id = saved.body.data.id
    // Ada's own change over the API keeps her approval current.
    const own = await call(ada, `/api/automations/${id}`, { method: 'PUT', body: { description: 'Every night' } })
    expect(own.body.data).toMatchObject({ version: 2, deviceApprovedVersion: 2 })
    await call(bob, `/api/automations/${id}`, { method: 'PUT', body: { steps: [{ type: 'navigate', url: 'http://10.0.0.9/' }] } })
    // A partial change of hers (a rename, a pause) does not approve Bob's steps she has not looked at.
    const renamed = await call(ada, `/api/automations/${id}`, { method: 'PUT', body: { name: 'Nightly intranet report' } })
    expect(renamed.body.data).toMatchObject({ version: 4, deviceApprovedVersion: 2 })
    // Saving the whole automation from the builder, over the version it showed her, does.
    const asAda = {
      id: ada.id,
      email: ada.email,
      emailVerified: true,
      role: 'user' as const,
      workspace: { id: teamId, role: 'member' as const },
    }
    const reviewed = await t.services.automations.update(
      id,
      asAda,
      { name: 'Nightly intranet report' },
      { expectedVersion: 4, reviewed: true },
    )
    expect(reviewed).toMatchObject({ version: 5, deviceApprovedVersion: 5 })
    // Moving it to the cloud drops the approval; Bob cannot put it back on Ada's runner.
    const cloud = await call(bob, `/api/automations/${id}`, { method: 'PUT', body: { deviceId: null } })
    expect(cloud.body.data).toMatchObject({ deviceId: null, deviceApprovedVersion: null })
    expect((await call(bob, `/api/automations/${id}`, { method: 'PUT', body: { deviceId: adaRunner.id } })).status).toBe(403)
    const [row] = await t.db
      .select()
      .from(automations)
      .where(and(eq(automations.id, id), eq(automations.workspaceId, teamId)))
    expect(row?.deviceId).toBeNull()
  })

  // Last: Bob leaves the team.
  it('disconnecting a runner, or its owner leaving the workspace, pauses the schedules set to run on it, which keep naming it', async () => {
    const spare = await pairRunner(ada, 'Ada’s spare PC')
    const onSpare = await scheduledOn(ada, spare.id, 'Spare PC report')
    const bobsOwn = await pairRunner(bob, 'Bob’s desktop')
    const onBobs = await scheduledOn(bob, bobsOwn.id, 'Bob’s desktop report')
    const inCloud = await scheduledOn(bob, null, 'Cloud report')
    const stateOf = async (id: string) => {
      const [row] = await t.db
        .select({ enabled: automations.enabled, deviceId: automations.deviceId })
        .from(automations)
        .where(eq(automations.id, id))
      return row
    }
    expect(await stateOf(onSpare.body.data.id)).toEqual({ enabled: true, deviceId: spare.id })

    expect((await call(ada, `/api/devices/${spare.id}`, { method: 'DELETE' })).status).toBe(200)
    expect(await stateOf(onSpare.body.data.id)).toEqual({ enabled: false, deviceId: spare.id })
    expect(await stateOf(onBobs.body.data.id)).toEqual({ enabled: true, deviceId: bobsOwn.id })

    const removed = await call(ada, `/api/workspaces/current/members/${bob.id}`, { method: 'DELETE' })
    expect(removed.status, removed.body.message).toBe(200)
    expect(await stateOf(onBobs.body.data.id)).toEqual({ enabled: false, deviceId: bobsOwn.id })
    expect(await stateOf(inCloud.body.data.id)).toEqual({ enabled: true, deviceId: null })
    expect(await t.services.devices.disconnectedRunners(teamId, [spare.id, bobsOwn.id, adaRunner.id])).toEqual(
      new Map([
        [spare.id, 'Ada’s spare PC'],
        [bobsOwn.id, 'Bob’s desktop'],
      ]),
    )
  })
})
