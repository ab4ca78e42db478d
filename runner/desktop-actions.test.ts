import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DataRow } from '#common/workflow-interpreter.ts'
import { createDesktopActions, type DesktopRunData } from './desktop-actions.ts'

// Desktop steps on the member's machine (issue 29): only inside the folders the member allowed,
// whatever a path says (.., links), and nothing overwritten unless the step says so.
let root: string
let allowed: string
let outside: string
const opened: string[] = []

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'aether-desktop-'))
  allowed = path.join(root, 'Orders')
  outside = path.join(root, 'Private')
  await mkdir(allowed)
  await mkdir(outside)
  await writeFile(path.join(allowed, 'orders.csv'), 'Customer name,Qty\nAda,2\nBob,3\n')
  await writeFile(path.join(outside, 'secret.txt'), 'keep out')
  await symlink(outside, path.join(allowed, 'sneaky'))
})
afterAll(() => rm(root, { recursive: true, force: true }))

const actions = () =>
  createDesktopActions({
    allowed: [allowed],
    open: (file) => {
      opened.push(file)
      return Promise.resolve()
    },
  })

function runData(table: Record<string, string | null>[] = []) {
  const state: { rows: DataRow[] } = { rows: [] }
  const run: DesktopRunData = { table: () => table, setRows: (rows) => (state.rows = rows) }
  return { run, state }
}

describe('desktop actions', () => {
  it('reads a CSV file, or a folder listing, as the data rows', async () => {
    const { run, state } = runData()
    expect(await actions().perform({ type: 'readData', path: 'orders.csv', source: 'table' }, run)).toBe(
      '2 rows of “orders.csv” are the data rows',
    )
    expect(state.rows).toEqual([
      { Customer_name: 'Ada', Qty: '2' },
      { Customer_name: 'Bob', Qty: '3' },
    ])
    await actions().perform({ type: 'readData', path: allowed, source: 'listing' }, run)
    expect(state.rows).toEqual([
      { name: 'orders.csv', path: path.join(allowed, 'orders.csv'), size: '30', modified: expect.stringMatching(/^\d{4}-/) },
    ])
  })

  it('writes the extracted table, refusing to replace a file unless told to', async () => {
    const { run } = runData([{ name: 'Ada', status: 'saved' }])
    await actions().perform({ type: 'writeData', path: 'results.csv', format: 'csv' }, run)
    expect(await readFile(path.join(allowed, 'results.csv'), 'utf8')).toBe('name,status\r\nAda,saved\r\n')
    await expect(actions().perform({ type: 'writeData', path: 'results.csv', format: 'csv' }, run)).rejects.toThrow(
      '“results.csv” exists already (the step may replace it)',
    )
    await actions().perform({ type: 'writeData', path: 'results.csv', format: 'json', replace: true }, run)
    expect(JSON.parse(await readFile(path.join(allowed, 'results.csv'), 'utf8'))).toEqual([{ name: 'Ada', status: 'saved' }])
  })

  it('writes the table as an Excel workbook and reads one back as the data rows', async () => {
    const { run, state } = runData([
      { name: 'Ada', total: '12' },
      { name: 'Bob', total: null },
    ])
    await actions().perform({ type: 'writeData', path: 'results.xlsx', format: 'xlsx' }, run)
    expect([...(await readFile(path.join(allowed, 'results.xlsx'))).subarray(0, 2)]).toEqual([0x50, 0x4b])
    expect(await actions().perform({ type: 'readData', path: 'results.xlsx', source: 'table' }, run)).toBe(
      '2 rows of “results.xlsx” are the data rows',
    )
    expect(state.rows).toEqual([
      { name: 'Ada', total: '12' },
      { name: 'Bob', total: '' },
    ])
  })

  it('copies and moves files inside the allowed folders, and opens them with their app', async () => {
    const { run } = runData()
    await actions().perform({ type: 'copyFile', from: 'orders.csv', to: 'copy.csv' }, run)
    await actions().perform({ type: 'moveFile', from: 'copy.csv', to: 'moved.csv' }, run)
    expect(await readFile(path.join(allowed, 'moved.csv'), 'utf8')).toContain('Ada,2')
    await expect(actions().perform({ type: 'moveFile', from: 'copy.csv', to: 'again.csv' }, run)).rejects.toThrow(
      '“copy.csv” does not exist',
    )
    await expect(actions().perform({ type: 'copyFile', from: 'orders.csv', to: 'moved.csv' }, run)).rejects.toThrow(
      '“moved.csv” exists already',
    )
    await actions().perform({ type: 'openFile', path: 'moved.csv' }, run)
    expect(opened).toEqual([path.join(allowed, 'moved.csv')])
  })

  it('refuses every path outside the allowed folders: absolute, with .., through a link, as a target', async () => {
    const { run } = runData([{ a: '1' }])
    const refusal = (given: string) => `“${given}” is outside the folders this runner may use (“${allowed}”)`
    const secret = path.join(outside, 'secret.txt')
    await expect(actions().perform({ type: 'readData', path: secret, source: 'table' }, run)).rejects.toThrow(refusal(secret))
    await expect(actions().perform({ type: 'openFile', path: '../Private/secret.txt' }, run)).rejects.toThrow(
      refusal('../Private/secret.txt'),
    )
    await expect(actions().perform({ type: 'readData', path: 'sneaky/secret.txt', source: 'table' }, run)).rejects.toThrow(
      refusal('sneaky/secret.txt'),
    )
    await expect(actions().perform({ type: 'writeData', path: 'sneaky/out.csv', format: 'csv' }, run)).rejects.toThrow(
      refusal('sneaky/out.csv'),
    )
    await expect(actions().perform({ type: 'moveFile', from: 'orders.csv', to: path.join(outside, 'x.csv') }, run)).rejects.toThrow(
      refusal(path.join(outside, 'x.csv')),
    )
    expect(await readFile(path.join(allowed, 'orders.csv'), 'utf8')).toContain('Ada')
    await expect(createDesktopActions({ allowed: [] }).perform({ type: 'openFile', path: 'x' }, run)).rejects.toThrow(
      'this runner may use no folder yet: allow one with `aether-runner allow <folder>`',
    )
  })
})
