import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { automationStepSchema, parseSteps, STEPS_VERSION, upgradeStep } from '#common/automation-steps.ts'
import { migratedUntil, type MigrationClient } from '#server/testing/migrated-until.ts'

// Migration 0008 (docs/decisions/019): version-1 steps named their element with a `selector`
// string; version 2 with a target, a list of ways. Every stored automation and the steps every
// run kept must come out as version 2, meaning the same thing (the selector as the one CSS way),
// as the on-read upgrade reads them, and valid for the step schema the executor runs.
let database: Awaited<ReturnType<typeof migratedUntil>>
let client: MigrationClient

beforeEach(async () => {
  database = await migratedUntil('0008_steps_v2_and_repairs')
  client = database.client
})
afterEach(async () => {
  await database.close()
})

const rows = async <T>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows

/** Every kind of version-1 step, with the Playwright selector syntax version 1 ran (`text=…`, `>>`). */
const V1_STEPS = [
  { type: 'navigate', url: 'https://shop.example.com/sign-in' },
  { type: 'type', selector: '#email', text: 'ada@example.com' },
  { type: 'type', selector: 'input[name="password"]', text: 'hunter2' },
  { type: 'click', selector: 'text=Sign in' },
  { type: 'wait', selector: '.dashboard >> h1' },
  { type: 'wait', ms: 500 },
  { type: 'select', selector: 'select#country', value: 'Norway' },
  { type: 'extract', selector: 'table.orders td.total', field: 'total' },
  { type: 'extract', selector: 'a.invoice', field: 'invoice link', attribute: 'href' },
  { type: 'screenshot', name: 'Orders' },
  { type: 'assertText', selector: '.status', text: 'Paid' },
  { type: 'assertText', text: 'Welcome back' },
]

/** What each step must become: the selector as the one CSS way, every other field as it was. */
const V2_STEPS = [
  { type: 'navigate', url: 'https://shop.example.com/sign-in' },
  { type: 'type', target: [{ by: 'css', selector: '#email' }], text: 'ada@example.com' },
  { type: 'type', target: [{ by: 'css', selector: 'input[name="password"]' }], text: 'hunter2' },
  { type: 'click', target: [{ by: 'css', selector: 'text=Sign in' }] },
  { type: 'wait', target: [{ by: 'css', selector: '.dashboard >> h1' }] },
  { type: 'wait', ms: 500 },
  { type: 'select', target: [{ by: 'css', selector: 'select#country' }], value: 'Norway' },
  { type: 'extract', target: [{ by: 'css', selector: 'table.orders td.total' }], field: 'total' },
  { type: 'extract', target: [{ by: 'css', selector: 'a.invoice' }], field: 'invoice link', attribute: 'href' },
  { type: 'screenshot', name: 'Orders' },
  { type: 'assertText', target: [{ by: 'css', selector: '.status' }], text: 'Paid' },
  { type: 'assertText', text: 'Welcome back' },
]

async function seedAutomation(ownerId: string, name: string, steps: unknown[]): Promise<string> {
  const [row] = await rows<{ id: string }>(`insert into automations (owner_id, name, steps) values ($1, $2, $3::jsonb) returning id`, [
    ownerId,
    name,
    JSON.stringify(steps),
  ])
  if (!row) throw new Error('no automation')
  return row.id
}

async function seedRun(automationId: string, userId: string, steps: unknown[]): Promise<string> {
  const [row] = await rows<{ id: string }>(
    `insert into automation_runs (automation_id, automation_name, user_id, status, trigger, runner, steps) values ($1, 'x', $2, 'succeeded', 'manual', 'cloud', $3::jsonb) returning id`,
    [automationId, userId, JSON.stringify(steps)],
  )
  if (!row) throw new Error('no run')
  return row.id
}

describe('migration 0008 (steps version 2)', () => {
  it('rewrites every version-1 step of automations and runs into a target with the same meaning', async () => {
    await client.query(`insert into subscription_plans (name, slug) values ('Free', 'free')`)
    await client.query(`insert into users (id, email) values ('ada', 'ada@example.com')`)
    const automationId = await seedAutomation('ada', 'Orders', V1_STEPS)
    const emptyId = await seedAutomation('ada', 'Empty', [])
    const navigateOnlyId = await seedAutomation('ada', 'Open', [V1_STEPS[0]])
    const runId = await seedRun(automationId, 'ada', V1_STEPS)
    // A run whose steps have no selector at all is left alone.
    const plainRunId = await seedRun(navigateOnlyId, 'ada', [V1_STEPS[0], { type: 'screenshot' }])

    await database.migrateRest()

    const automations = await rows<{ id: string; steps: unknown[]; steps_version: number; version: number; self_repair: boolean }>(
      `select id, steps, steps_version, version, self_repair from automations`,
    )
    const byId = new Map(automations.map((row) => [row.id, row]))
    // Migration 0008 wrote version 2; version 3 (0027, docs/decisions/042) only adds to it, so those rows stay as they are.
    expect(byId.get(automationId)).toMatchObject({ steps: V2_STEPS, steps_version: 2, version: 1, self_repair: true })
    expect(byId.get(emptyId)).toMatchObject({ steps: [], steps_version: 2 })
    expect(byId.get(navigateOnlyId)).toMatchObject({ steps: [V1_STEPS[0]], steps_version: 2 })

    const runs = new Map(
      (await rows<{ id: string; steps: unknown[]; repairs: unknown[] }>(`select id, steps, repairs from automation_runs`)).map((row) => [
        row.id,
        row,
      ]),
    )
    expect(runs.get(runId)).toEqual({ id: runId, steps: V2_STEPS, repairs: [] })
    expect(runs.get(plainRunId)?.steps).toEqual([V1_STEPS[0], { type: 'screenshot' }])

    for (const [index, migrated] of V2_STEPS.entries()) {
      // The migration and the on-read upgrade (a version-1 document imported today) agree.
      expect(migrated).toEqual(upgradeStep(V1_STEPS[index]))
      // Version 2 as the executor reads it: no selector left, valid for the schema without any upgrade.
      expect(migrated).not.toHaveProperty('selector')
      expect(automationStepSchema.safeParse(migrated).success, JSON.stringify(migrated)).toBe(true)
    }
    const stored = byId.get(automationId)?.steps
    expect(parseSteps(stored)).toEqual({ ok: true, steps: V2_STEPS })
    expect(parseSteps(runs.get(runId)?.steps)).toEqual({ ok: true, steps: V2_STEPS })

    // New automations are of the current version by default.
    await client.query(`insert into automations (owner_id, workspace_id, name, steps) values ('ada', 'ada', 'New', '[]'::jsonb)`)
    expect(await rows(`select steps_version from automations where name = 'New'`)).toEqual([{ steps_version: STEPS_VERSION }])
  })

  it('leaves what it cannot read as it was, for the schema to refuse on read', async () => {
    await client.query(`insert into subscription_plans (name, slug) values ('Free', 'free')`)
    await client.query(`insert into users (id, email) values ('bob', 'bob@example.com')`)
    // Hand-edited rows: a step that is not an object, a selector that is not a string.
    const odd = ['not a step', { type: 'click', selector: 42 }, { type: 'click', selector: '#ok' }]
    const id = await seedAutomation('bob', 'Odd', odd)

    await database.migrateRest()

    const [row] = await rows<{ steps: unknown[] }>(`select steps from automations where id = $1`, [id])
    expect(row?.steps).toEqual([
      'not a step',
      { type: 'click', target: [{ by: 'css', selector: 42 }] },
      { type: 'click', target: [{ by: 'css', selector: '#ok' }] },
    ])
    // The schema names the broken steps instead of running them.
    const parsed = parseSteps(row?.steps)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.issues.map((issue) => issue.path)).toEqual(['steps.0.type', 'steps.1.target.0.selector'])
  })
})
