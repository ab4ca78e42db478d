import { utils, write } from '@e965/xlsx'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { automationRuns, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'

// A run's rows of data, given the ways the API takes them (CSV, records, an Excel workbook) and
// kept with the automation for the runs started without rows of their own: a trigger URL, a
// schedule, Run in cloud with nothing given (docs/decisions/046).

type Account = Awaited<ReturnType<TestApp['signUp']>>
type Answer<T> = { status: number; data: T; message?: string; code?: string }
type Run = { id: string; status: string; dataRows: Record<string, string>[] }
type Kept = { name: string; rowCount: number; columns: string[]; updatedAt: string } | null

let t: TestApp
let business: Account
let free: Account

async function call<T>(account: Account | null, path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer<T>> {
  const response = await t.request(path, { ...init, token: account?.token })
  const text = await response.text()
  return { status: response.status, ...(text ? (JSON.parse(text) as Omit<Answer<T>, 'status'>) : { data: undefined as T }) }
}

const ROW_STEPS = [{ type: 'forEachRow' }, { type: 'navigate', url: 'https://example.com/orders/{{row.order}}' }, { type: 'end' }]

async function automationOf(account: Account, steps: unknown[] = ROW_STEPS): Promise<string> {
  const created = await call<{ id: string }>(account, '/api/automations', { body: { name: 'Orders', steps } })
  expect(created.status, created.message).toBe(201)
  return created.data.id
}

const base64Workbook = (rows: unknown[][]) =>
  (write(utils.book_new(utils.aoa_to_sheet(rows), 'Orders'), { type: 'buffer', bookType: 'xlsx' }) as Buffer).toString('base64')

/** A run reported by the member's own client: started at once, never queued for the cloud. */
const startClientRun = (account: Account, automationId: string, data: Record<string, unknown> = {}) =>
  call<Run>(account, `/api/automations/${automationId}/runs`, { body: { where: 'client', ...data } })

beforeAll(async () => {
  t = await createTestApp()
  business = await t.signUp()
  free = await t.signUp()
  await t.db.update(workspaces).set({ planSlug: 'business', credits: 200 }).where(eq(workspaces.id, business.id))
})
afterAll(async () => {
  await t?.close()
})

describe("a run's rows of data", () => {
  it('are taken as CSV, as records, or as an Excel workbook (its first sheet), and kept with the run', async () => {
    const automationId = await automationOf(business)
    const csv = await startClientRun(business, automationId, { csv: 'order,e-mail\n1001,ada@example.com\n1002,grace@example.com\n' })
    expect(csv.status, csv.message).toBe(201)
    expect(csv.data.dataRows).toEqual([
      { order: '1001', e_mail: 'ada@example.com' },
      { order: '1002', e_mail: 'grace@example.com' },
    ])
    const records = await startClientRun(business, automationId, { rows: [{ order: 7 }, { order: '8' }] })
    expect(records.data.dataRows).toEqual([{ order: '7' }, { order: '8' }])
    const workbook = await startClientRun(business, automationId, {
      xlsx: base64Workbook([
        ['Order', 'Amount'],
        [1003, 12.5],
        [1004, 3],
      ]),
    })
    expect(workbook.status, workbook.message).toBe(201)
    expect(workbook.data.dataRows).toEqual([
      { Order: '1003', Amount: '12.5' },
      { Order: '1004', Amount: '3' },
    ])
  })

  it("are taken from an earlier run's extracted table, its field names made column names", async () => {
    const automationId = await automationOf(business)
    const plain = await automationOf(business, [{ type: 'navigate', url: 'https://example.com/' }])
    const earlier = await startClientRun(business, plain)
    const extracted = [
      { 'Order number': '3001', total: '9.50' },
      { 'Order number': '3002', total: null },
    ]
    const finished = await call(business, `/api/runs/${earlier.data.id}/finish`, { body: { status: 'succeeded', extracted } })
    expect(finished.status, finished.message).toBe(200)
    const started = await startClientRun(business, automationId, { rowsFromRun: earlier.data.id })
    expect(started.status, started.message).toBe(201)
    expect(started.data.dataRows).toEqual([
      { Order_number: '3001', total: '9.50' },
      { Order_number: '3002', total: '' },
    ])
  })

  it('are refused given two ways, for steps without a "for each row" block, when they are not a workbook, or over the plan', async () => {
    const automationId = await automationOf(free)
    const twoWays = await startClientRun(free, automationId, { csv: 'order\n1\n', rows: [{ order: '1' }] })
    expect(twoWays).toMatchObject({ status: 400, message: 'Give the data one way: rows, csv, xlsx or rowsFromRun.' })
    const notWorkbook = await startClientRun(free, automationId, { xlsx: Buffer.from('order\n1\n').toString('base64') })
    expect(notWorkbook).toMatchObject({ status: 400, message: 'The file is not an Excel workbook (.xlsx): save it as .xlsx or CSV.' })
    const notBase64 = await startClientRun(free, automationId, { xlsx: 'not base64!' })
    expect(notBase64.status).toBe(400)
    expect(notBase64.message).toContain('xlsx must be the workbook as base64 text')
    const plain = await automationOf(free, [{ type: 'navigate', url: 'https://example.com/' }])
    const unwanted = await startClientRun(free, plain, { csv: 'order\n1\n' })
    expect(unwanted).toMatchObject({
      status: 400,
      message: 'This automation has no "for each row" block, so it takes no rows of data: add one, or start it without rows.',
    })
    const many = `order\n${Array.from({ length: 21 }, (_, n) => n + 1).join('\n')}\n`
    const overPlan = await startClientRun(free, automationId, { csv: many })
    expect(overPlan.message).toBe('The Free plan takes up to 20 rows of data per run; this data has 21. Split it, or upgrade.')
    const none = await startClientRun(free, automationId)
    expect(none).toMatchObject({
      status: 400,
      message:
        'This automation goes through rows of data ("for each row"): start it with rows (a CSV or Excel file, pasted rows, or an earlier run\'s extracted data), or keep rows with it.',
    })
  })
})

describe('rows kept with an automation', () => {
  it('are what a run started without rows goes through, from the API and from its trigger URL, until they are removed', async () => {
    const automationId = await automationOf(business)
    expect((await call<Kept>(business, `/api/automations/${automationId}/rows`)).data).toBeNull()
    const before = await call<{ version: number }>(business, `/api/automations/${automationId}`)

    const kept = await call<Kept>(business, `/api/automations/${automationId}/rows`, {
      method: 'PUT',
      body: { name: 'orders.xlsx', xlsx: base64Workbook([['order'], [2001], [2002], [2003]]) },
    })
    expect(kept.status, kept.message).toBe(200)
    expect(kept.data).toMatchObject({ name: 'orders.xlsx', rowCount: 3, columns: ['order'] })
    expect((await call<Kept>(business, `/api/automations/${automationId}/rows`)).data).toMatchObject({ rowCount: 3 })
    // Keeping rows is a change of the automation: a new version.
    const after = await call<{ version: number }>(business, `/api/automations/${automationId}`)
    expect(after.data.version).toBe(before.data.version + 1)

    const started = await startClientRun(business, automationId)
    expect(started.status, started.message).toBe(201)
    expect(started.data.dataRows).toEqual([{ order: '2001' }, { order: '2002' }, { order: '2003' }])
    // Rows given with the start are used instead.
    const given = await startClientRun(business, automationId, { csv: 'order\n9\n' })
    expect(given.data.dataRows).toEqual([{ order: '9' }])

    const issued = await call<{ secret: string }>(business, `/api/automations/${automationId}/trigger`, { method: 'POST' })
    expect(issued.status, issued.message).toBe(201)
    const fired = await call<{ id: string }>(null, `/api/triggers/${issued.data.secret}`, { method: 'POST', body: {} })
    expect(fired.status, fired.message).toBe(202)
    const [queued] = await t.db.select().from(automationRuns).where(eq(automationRuns.id, fired.data.id))
    expect(queued?.dataRows).toEqual([{ order: '2001' }, { order: '2002' }, { order: '2003' }])

    // A copy of the automation keeps them too.
    const copy = await call<{ id: string }>(business, `/api/automations/${automationId}/duplicate`, { method: 'POST' })
    expect((await call<Kept>(business, `/api/automations/${copy.data.id}/rows`)).data).toMatchObject({ name: 'orders.xlsx', rowCount: 3 })

    const removed = await call<Kept>(business, `/api/automations/${automationId}/rows`, { method: 'DELETE' })
    expect(removed).toMatchObject({ status: 200, data: null })
    const refused = await startClientRun(business, automationId)
    expect(refused.status).toBe(400)
    expect(refused.message).toContain('or keep rows with it.')
  })

  it('are refused for an automation without a "for each row" block, given no way, or with no rows', async () => {
    const plain = await automationOf(business, [{ type: 'navigate', url: 'https://example.com/' }])
    const noBlock = await call(business, `/api/automations/${plain}/rows`, { method: 'PUT', body: { csv: 'order\n1\n' } })
    expect(noBlock).toMatchObject({
      status: 400,
      message: 'This automation has no "for each row" block, so it takes no rows of data: add one first.',
    })
    const automationId = await automationOf(business)
    const nothing = await call(business, `/api/automations/${automationId}/rows`, { method: 'PUT', body: { name: 'x' } })
    expect(nothing).toMatchObject({ status: 400, message: 'Give the rows one way: rows, csv, xlsx or rowsFromRun.' })
    const empty = await call(business, `/api/automations/${automationId}/rows`, { method: 'PUT', body: { rows: [] } })
    expect(empty).toMatchObject({
      status: 400,
      message: 'The data has no rows: its first line names the columns, and each line after it is a row.',
    })
  })
})
