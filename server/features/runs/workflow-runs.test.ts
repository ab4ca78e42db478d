import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { Caller } from '#common/auth.ts'
import { creditLedger, workspaces } from '#server/db/schema/index.ts'
import { createSharedBrowser } from '#server/browser/shared-browser.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { PRODUCTS, REPORT_CSV, startWorkflowSite } from '#server/testing/workflow-site.ts'
import type { RunDataSource } from '#server/tables/data-sources.ts'
import type { Run } from './run.service.ts'
import { createStepExecutor } from './step-executor.ts'

// Workflows end to end (issue 29): a run's steps with blocks, rows and scripts, performed by the
// cloud executor in Chromium on a practice site, judged by what the site received and what the run
// extracted.

const WORKER = 'test-host:1:workflow'
const logger = pino({ level: 'silent' })
let t: TestApp
let site: Awaited<ReturnType<typeof startWorkflowSite>>
let caller: Caller
let token: string
const browsers = createSharedBrowser({ executablePath: '/usr/bin/chromium', logger })

beforeAll(async () => {
  t = await createTestApp()
  site = await startWorkflowSite()
  const member = await t.signUp()
  token = member.token
  caller = personalCaller(member)
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 500 }).where(eq(workspaces.id, member.id))
})
afterAll(async () => {
  await browsers.close()
  await site?.close()
  await t?.close()
})

const executor = () =>
  createStepExecutor({
    reporting: t.services.runQueue,
    runFiles: t.services.runFiles,
    browsers,
    logger,
    // 120 steps of 20 rows, each with its picture (docs/decisions/057): on a busy 2-core machine that is more than 90 s.
    config: { stepTimeoutMs: 4_000, timeLimitMs: 150_000, maxActions: 2000, privateTargets: 'loopback', heartbeatMs: 500 },
    automationFiles: t.services.automationFiles,
  })

async function run(steps: AutomationStep[], data?: RunDataSource): Promise<Run> {
  const automation = await t.services.automations.create(caller, {
    name: 'Workflow',
    description: '',
    steps,
    schedule: null,
    enabled: true,
  })
  return execute(await t.services.runs.start(automation.id, caller, { runner: 'cloud', trigger: 'manual', data }))
}

async function execute(queued: Run): Promise<Run> {
  const claimed = await t.services.runQueue.claim(WORKER)
  expect(claimed?.id).toBe(queued.id)
  await executor().execute({ ...(claimed as Run), inputs: claimed?.inputs ?? {} }, WORKER)
  return t.services.runs.get(queued.id, caller)
}

const label = (text: string) => [{ by: 'label' as const, text }]
const button = (name: string) => [{ by: 'role' as const, role: 'button' as const, name }]
const link = (name: string) => [{ by: 'role' as const, role: 'link' as const, name }]
const products = [{ by: 'css' as const, selector: 'article.product' }]

describe('workflows in the cloud executor', () => {
  it('enters each of 20 CSV rows into the form: the site gets 20 orders, the bad row fails alone and is reported', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `Customer ${i + 1}`)
    const csv = [
      'Customer name,E-mail,Qty',
      ...names.map((name, i) => `"${name}",${i === 6 ? 'not-an-address' : `c${i + 1}@example.com`},${i + 1}`),
    ].join('\r\n')
    const before = site.orders.length
    const finished = await run(
      [
        { type: 'forEachRow', onRowError: 'continue' },
        { type: 'navigate', url: `${site.url}/order` },
        { type: 'type', target: label('Customer name'), text: '{{row.Customer_name}}' },
        { type: 'type', target: label('Email'), text: '{{row.E_mail}}' },
        { type: 'type', target: label('Quantity'), text: '{{row.Qty}}' },
        { type: 'click', target: button('Place order') },
        { type: 'assertText', text: 'Order saved for {{row.Customer_name}}' },
        { type: 'end' },
      ],
      { csv },
    )
    const orders = site.orders.slice(before)
    expect(orders).toHaveLength(20)
    expect(orders.map((order) => order.name)).toEqual(names)
    expect(orders[6]?.email).toBe('not-an-address')
    expect(orders[19]).toEqual({ name: 'Customer 20', email: 'c20@example.com', quantity: '20' })
    expect(finished.status).toBe('failed')
    expect(finished.error).toMatch(/^Row 7 of 20 failed; the other rows ran\. Row 7: Step 7 \(assertText, row 7\): the page does not show/)
    expect(finished.rowOutcomes.filter((row) => row.status === 'done')).toHaveLength(19)
    expect(finished.rowOutcomes[6]).toMatchObject({ row: 7, status: 'failed' })
    expect(finished.creditsCharged).toBe(20)
    expect(finished.screenshots.some((shot) => shot.name === 'Row 7 failed')).toBe(true)
  }, 180_000)

  it('stops at the first failing row when the block says so, the rows after it not run', async () => {
    const finished = await run(
      [
        { type: 'forEachRow', onRowError: 'stop' },
        { type: 'navigate', url: `${site.url}/order` },
        { type: 'type', target: label('Customer name'), text: '{{row.name}}' },
        { type: 'type', target: label('Email'), text: '{{row.email}}' },
        { type: 'click', target: button('Place order') },
        { type: 'assertText', text: 'Order saved' },
        { type: 'end' },
      ],
      {
        rows: [
          { name: 'A', email: 'a@example.com' },
          { name: 'B', email: 'b' },
          { name: 'C', email: 'c@example.com' },
        ],
      },
    )
    expect(finished.status).toBe('failed')
    expect(finished.rowOutcomes.map((row) => row.status)).toEqual(['done', 'failed', 'not run'])
    // Three rows were paid for when it was queued; the one never run is given back.
    const ledger = await t.db.select().from(creditLedger).where(eq(creditLedger.workspaceId, caller.workspace.id))
    expect(ledger.filter((entry) => entry.reference?.startsWith(`run ${finished.id}`)).map((entry) => [entry.delta, entry.reason])).toEqual(
      [
        [-3, 'usage'],
        [1, 'refund'],
      ],
    )
  })

  it('skips a product that says "Out of stock" and, for each other one, opens it and extracts its price', async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'forEach', target: products, max: 50 },
      { type: 'if', when: 'textShown', text: 'Out of stock' },
      { type: 'next' },
      { type: 'end' },
      { type: 'extract', target: [{ by: 'css', selector: '.name' }], field: 'name' },
      { type: 'click', target: [{ by: 'role', role: 'link' }] },
      { type: 'extract', target: [{ by: 'css', selector: '.price' }], field: 'price' },
      { type: 'goBack' },
      { type: 'end' },
    ])
    expect(finished.error).toBeNull()
    expect(finished.status).toBe('succeeded')
    const onFirstPage = PRODUCTS.slice(0, 3).filter((product) => product.inStock)
    expect(finished.extracted).toEqual(onFirstPage.map((product) => ({ name: product.name, price: product.price })))
  })

  it('repeats until there is no "Next": every page of the shop is read', async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'repeat', when: 'elementNotShown', target: link('Next'), max: 10 },
      { type: 'extract', target: [{ by: 'css', selector: '.name' }], field: 'name' },
      { type: 'click', target: link('Next') },
      { type: 'end' },
      { type: 'extract', target: [{ by: 'css', selector: '.name' }], field: 'name' },
    ])
    expect(finished.status).toBe('succeeded')
    expect(finished.extracted.map((row) => row.name)).toEqual(PRODUCTS.map((product) => product.name))
  })

  it('fails a repeat that reaches its most rounds with the condition still not holding', async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'repeat', when: 'textShown', text: 'never on the page', max: 2 },
      { type: 'wait', ms: 10 },
      { type: 'end' },
    ])
    expect(finished.status).toBe('failed')
    expect(finished.error).toBe('Step 2 (repeat): the steps were repeated 2 times and the condition still does not hold')
  })

  it('runs a JavaScript step whose result a later step types and a condition compares', async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'script', code: "return document.querySelectorAll('article.product').length * 7", storeAs: 'code', extract: true },
      { type: 'navigate', url: `${site.url}/order` },
      { type: 'type', target: label('Customer name'), text: 'Code {{value.code}}' },
      { type: 'type', target: label('Email'), text: 'x@example.com' },
      { type: 'if', when: 'valueAbove', value: '{{value.code}}', text: '20' },
      { type: 'type', target: label('Quantity'), text: '1' },
      { type: 'else' },
      { type: 'type', target: label('Quantity'), text: '2' },
      { type: 'end' },
      { type: 'click', target: button('Place order') },
      { type: 'assertText', text: 'Order saved for Code 21 (1)' },
    ])
    expect(finished.error).toBeNull()
    expect(finished.extracted).toEqual([{ code: '21' }])
    expect(finished.log.map((line) => line.message)).toContain('Step 6 (if): 21 is above “20”? Yes.')
    expect(site.orders.at(-1)).toEqual({ name: 'Code 21', email: 'x@example.com', quantity: '1' })
  })

  it('stops a script that runs past its time, and reports a script error as the step failing', async () => {
    const looping = await run([
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'script', code: 'while (true) {}', timeoutMs: 500 },
    ])
    expect(looping.error).toBe('Step 2 (script): the script ran longer than 0.5 s and was stopped')
    const throwing = await run([
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'script', code: "throw new Error('no basket here')" },
    ])
    expect(throwing.error).toBe('Step 2 (script): the script failed: no basket here')
  })

  it('ends the run where a stop step says, as failed with its message or as succeeded', async () => {
    const failed = await run([
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'if', when: 'textShown', text: 'Out of stock' },
      { type: 'stop', outcome: 'failed', message: 'Something is out of stock' },
      { type: 'end' },
      { type: 'click', target: link('Next') },
    ])
    expect(failed.error).toBe('Step 3 (stop): Something is out of stock')
    expect(failed.actionsPerformed).toBe(1)
    const succeeded = await run([
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'stop', outcome: 'succeeded', message: 'Seen enough' },
      { type: 'click', target: link('No such link') },
    ])
    expect(succeeded.status).toBe('succeeded')
    expect(succeeded.log.map((line) => line.message)).toContain('Step 2 (stop): Seen enough')
  })

  it('resumes a run at the rows it did not finish: only those are entered and paid for, the finished ones kept', async () => {
    site.state.refusing.add('Row B')
    const rowSteps: AutomationStep[] = [
      { type: 'forEachRow', onRowError: 'continue' },
      { type: 'navigate', url: `${site.url}/order` },
      { type: 'type', target: label('Customer name'), text: '{{row.name}}' },
      { type: 'type', target: label('Email'), text: 'r@example.com' },
      { type: 'click', target: button('Place order') },
      { type: 'assertText', text: 'Order saved for {{row.name}}' },
      { type: 'end' },
    ]
    const first = await run(rowSteps, { rows: [{ name: 'Row A' }, { name: 'Row B' }, { name: 'Row C' }] })
    expect(first.rowOutcomes.map((row) => row.status)).toEqual(['done', 'failed', 'done'])
    site.state.refusing.clear()
    const before = site.orders.length
    const resumed = await execute(await t.services.runs.resume(first.id, caller))
    expect(site.orders.slice(before).map((order) => order.name)).toEqual(['Row B'])
    expect(resumed).toMatchObject({ resumedFrom: first.id, status: 'succeeded', creditsCharged: 1, startStep: 1 })
    expect(resumed.rowOutcomes.map((row) => row.status)).toEqual(['done', 'done', 'done'])
    await expect(t.services.runs.resume(resumed.id, caller)).rejects.toThrow('Only a run that failed or was cancelled can be resumed')
  })

  it('resumes a run at the step it failed, on the page it stopped on, the steps before it not run again', async () => {
    const first = await run([
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'click', target: link('Next') },
      { type: 'click', target: link('Continue') },
      { type: 'assertText', text: 'New order' },
    ])
    expect(first.error).toMatch(/^Step 3 \(click\): /)
    expect(first.stoppedAt).toEqual({ step: 3, url: `${site.url}/shop?page=2` })
    site.state.showContinue = true
    const resumed = await execute(await t.services.runs.resume(first.id, caller))
    site.state.showContinue = false
    expect(resumed).toMatchObject({ status: 'succeeded', startStep: 3, resumeUrl: `${site.url}/shop?page=2`, actionsPerformed: 2 })
    expect(resumed.log.map((line) => line.message)).toContain('Resuming at step 3.')
    await expect(t.services.runs.resume(first.id, caller, { fromStep: 9 })).rejects.toThrow(
      'fromStep must be a step of the run, from 1 to 4.',
    )
  })

  it('keeps a download (by a click and by its address), saves the extracted table, and uploads a kept file into a form', async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/report` },
      { type: 'download', target: link('Download report') },
      { type: 'download', url: `${site.url}/report.csv`, name: 'again.csv' },
      { type: 'navigate', url: `${site.url}/shop` },
      { type: 'extract', target: [{ by: 'css', selector: '.name' }], field: 'name' },
      { type: 'saveTable', format: 'json', name: 'names.json' },
      { type: 'navigate', url: `${site.url}/upload` },
      { type: 'upload', target: label('Attachment'), file: 'report.csv' },
      { type: 'click', target: button('Send') },
      { type: 'assertText', text: `Received report.csv (${REPORT_CSV.length} bytes)` },
    ])
    expect(finished.error).toBeNull()
    expect(finished.files.map(({ name, size, step }) => ({ name, size, step }))).toEqual([
      { name: 'report.csv', size: REPORT_CSV.length, step: 2 },
      { name: 'again.csv', size: REPORT_CSV.length, step: 3 },
      { name: 'names.json', size: expect.any(Number), step: 6 },
    ])
    expect(site.uploads.at(-1)).toEqual({ name: 'report.csv', content: REPORT_CSV })
    const saved = await t.services.runFiles.readFile(finished.id, finished.files[2]?.file ?? '')
    expect(JSON.parse(saved.toString('utf8'))).toEqual(PRODUCTS.slice(0, 3).map((product) => ({ name: product.name })))
    const response = await t.request(`/api/runs/${finished.id}/files/${finished.files[0]?.file}`, { token })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="report.csv"/)
    expect(await response.text()).toBe(REPORT_CSV)
  })

  it('fails an upload of a file neither the run nor the automation has, naming the files there are', async () => {
    const finished = await run([
      { type: 'navigate', url: `${site.url}/report` },
      { type: 'download', target: link('Download report') },
      { type: 'navigate', url: `${site.url}/upload` },
      { type: 'upload', target: label('Attachment'), file: 'missing.csv' },
    ])
    expect(finished.error).toBe(
      'Step 4 (upload): neither the run nor the automation has a file named “missing.csv” (there are “report.csv”)',
    )
  })

  it("uploads the automation's kept files, the one each row names, and the run's own file of a name before the automation's", async () => {
    const automation = await t.services.automations.create(caller, {
      name: 'Send attachments',
      description: '',
      steps: [
        { type: 'forEachRow', onRowError: 'continue' },
        { type: 'navigate', url: `${site.url}/upload` },
        { type: 'upload', target: label('Attachment'), file: '{{row.file}}' },
        { type: 'click', target: button('Send') },
        { type: 'assertText', text: 'Received {{row.file}}' },
        { type: 'end' },
        { type: 'navigate', url: `${site.url}/report` },
        { type: 'download', target: link('Download report') },
        { type: 'navigate', url: `${site.url}/upload` },
        { type: 'upload', target: label('Attachment'), file: 'report.csv' },
        { type: 'click', target: button('Send') },
      ],
      schedule: null,
      enabled: true,
    })
    const keep = (name: string, content: string) =>
      t.request(`/api/automations/${automation.id}/files/${encodeURIComponent(name)}`, {
        method: 'PUT',
        token,
        headers: { 'content-type': 'application/octet-stream' },
        body: content,
      })
    expect((await keep('invoice 1.txt', 'first invoice')).status).toBe(200)
    expect((await keep('invoice-2.txt', 'second invoice')).status).toBe(200)
    expect((await keep('report.csv', 'the kept report')).status).toBe(200)
    const before = site.uploads.length
    const finished = await execute(
      await t.services.runs.start(automation.id, caller, {
        runner: 'cloud',
        trigger: 'manual',
        data: { csv: 'file\ninvoice 1.txt\ninvoice-2.txt\nnot-kept.txt' },
      }),
    )
    expect(finished.rowOutcomes).toEqual([
      { row: 1, status: 'done' },
      { row: 2, status: 'done' },
      {
        row: 3,
        status: 'failed',
        error: expect.stringContaining(
          'neither the run nor the automation has a file named “not-kept.txt” (there are “invoice 1.txt”, “invoice-2.txt”, “report.csv”)',
        ),
      },
    ])
    expect(site.uploads.slice(before)).toEqual([
      { name: 'invoice 1.txt', content: 'first invoice' },
      { name: 'invoice-2.txt', content: 'second invoice' },
      // The report the run downloaded, not the automation's file of the same name.
      { name: 'report.csv', content: REPORT_CSV },
    ])
  })
})
