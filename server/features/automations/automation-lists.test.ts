import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { personalCaller } from '#server/testing/callers.ts'

// The two reads the dashboard's lists use: the automation filter's choices and the 'last run' column.

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

const STEPS = [{ type: 'navigate', url: 'https://example.com/' }]

async function member() {
  const account = await t.signUp()
  return { account, caller: personalCaller(account) }
}

describe('automations.names', () => {
  it("lists only the owner's automations, by name", async () => {
    const { account } = await member()
    const other = await member()
    await t.services.automations.create(personalCaller(account), {
      name: 'Zeta',
      description: '',
      steps: STEPS,
      schedule: null,
      enabled: true,
    })
    const alpha = await t.services.automations.create(personalCaller(account), {
      name: 'Alpha',
      description: '',
      steps: STEPS,
      schedule: null,
      enabled: true,
    })
    await t.services.automations.create(personalCaller(other.account), {
      name: 'Other',
      description: '',
      steps: STEPS,
      schedule: null,
      enabled: true,
    })

    const names = await t.services.automations.names(account.id)
    expect(names.map((row) => row.name)).toEqual(['Alpha', 'Zeta'])
    expect(names[0]).toEqual({ id: alpha.id, name: 'Alpha' })
    expect(await t.services.automations.names('nobody')).toEqual([])
  })
})

describe('runs.latestOf', () => {
  it('answers the newest run of each automation asked for, and nothing for one never run', async () => {
    const { account, caller } = await member()
    const make = (name: string) =>
      t.services.automations.create(personalCaller(account), { name, description: '', steps: STEPS, schedule: null, enabled: true })
    const [first, second, never] = await Promise.all([make('First'), make('Second'), make('Never')])

    const older = await t.services.runs.start(first.id, caller, { runner: 'client', trigger: 'extension' })
    await t.services.runs.report(older.id, caller, {}, { status: 'failed', error: 'No such button' })
    const newer = await t.services.runs.start(first.id, caller, { runner: 'client', trigger: 'extension' })
    const only = await t.services.runs.start(second.id, caller, { runner: 'client', trigger: 'desktop' })
    await t.services.runs.report(only.id, caller, {}, { status: 'succeeded' })

    const latest = await t.services.runs.latestOf([first.id, second.id, never.id])
    expect(Object.keys(latest).sort()).toEqual([first.id, second.id].sort())
    expect(latest[first.id]).toMatchObject({ id: newer.id, status: 'running' })
    expect(latest[second.id]).toMatchObject({ id: only.id, status: 'succeeded' })
    expect(latest[first.id]?.createdAt).toBeInstanceOf(Date)
    expect(await t.services.runs.latestOf([])).toEqual({})
  })
})
