import { spawn } from 'node:child_process'
import { constants } from 'node:fs'
import { copyFile, lstat, readdir, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { AutomationStep } from '#common/automation-steps.ts'
import { MAX_CSV_LENGTH, MAX_DATA_ROWS, parseCsv } from '#common/data-rows.ts'
import type { ExtractedRecord } from '#common/extracted-table.ts'
import type { DataRow } from '#common/workflow-interpreter.ts'
import { StepFailure } from '#server/browser/step-context.ts'
import { rowsOfXlsx, tableAsFile } from '#server/tables/table-files.ts'

type DesktopStep = Extract<AutomationStep, { type: 'readData' | 'writeData' | 'moveFile' | 'copyFile' | 'openFile' }>

/** What a desktop step reads and changes of its run: the extracted table, and the data rows. */
export interface DesktopRunData {
  table(): ExtractedRecord[]
  setRows(rows: DataRow[]): void
}

export interface DesktopActions {
  perform(step: DesktopStep, run: DesktopRunData): Promise<string>
}

/** The system's way to open a file with its default app (AETHER_RUNNER_OPEN replaces it: tests, other desktops). */
function systemOpen(file: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [command, args] = env.AETHER_RUNNER_OPEN
    ? [env.AETHER_RUNNER_OPEN, [file]]
    : process.platform === 'darwin'
      ? ['open', [file]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', file]]
        : ['xdg-open', [file]]
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' })
    child.once('error', (error) => reject(new StepFailure(`could not open it: ${error.message}`)))
    child.once('spawn', () => {
      child.unref()
      resolve()
    })
  })
}

const exists = (file: string) =>
  lstat(file).then(
    () => true,
    () => false,
  )

/**
 * The desktop steps as the local runner performs them (docs/decisions/046), only inside the
 * folders the member allowed (`aether-runner allow <folder>`): every path, after links are
 * followed, must be one of them or inside one; anything else is refused, naming the folders. A
 * relative path is inside the first allowed folder. Nothing is overwritten unless the step says so.
 */
export function createDesktopActions(options: { allowed: readonly string[]; open?: (file: string) => Promise<void> }): DesktopActions {
  const open = options.open ?? ((file: string) => systemOpen(file))
  const folders = () => Promise.all(options.allowed.map((folder) => realpath(folder).catch(() => path.resolve(folder))))
  const named = options.allowed.length ? options.allowed.map((folder) => `“${folder}”`).join(', ') : 'none yet'

  /** The path as the runner will use it, once it is known to be inside an allowed folder (following links). */
  async function inside(given: string): Promise<string> {
    if (options.allowed.length === 0)
      throw new StepFailure('this runner may use no folder yet: allow one with `aether-runner allow <folder>`')
    const absolute = path.resolve(options.allowed[0] as string, given)
    // A file that does not exist yet is judged by its folder, followed to where it really is.
    const real = (await exists(absolute))
      ? await realpath(absolute)
      : path.join(await realpath(path.dirname(absolute)).catch(() => path.dirname(absolute)), path.basename(absolute))
    const within = (await folders()).some((folder) => real === folder || real.startsWith(`${folder}${path.sep}`))
    if (!within) throw new StepFailure(`“${given}” is outside the folders this runner may use (${named})`)
    return real
  }

  async function readData(step: Extract<DesktopStep, { type: 'readData' }>, run: DesktopRunData): Promise<string> {
    const where = await inside(step.path)
    if (step.source === 'listing') {
      const entries = (
        await readdir(where, { withFileTypes: true }).catch(() => {
          throw new StepFailure(`“${step.path}” is not a folder this runner can read`)
        })
      ).filter((entry) => entry.isFile())
      const rows = await Promise.all(
        entries
          .map((entry) => entry.name)
          .sort()
          .slice(0, MAX_DATA_ROWS)
          .map(async (name) => {
            const facts = await stat(path.join(where, name))
            return { name, path: path.join(where, name), size: String(facts.size), modified: facts.mtime.toISOString() }
          }),
      )
      run.setRows(rows)
      return `${rows.length} file${rows.length === 1 ? '' : 's'} in “${step.path}” are the data rows`
    }
    const facts = await stat(where).catch(() => null)
    if (!facts?.isFile()) throw new StepFailure(`“${step.path}” is not a file`)
    if (facts.size > MAX_CSV_LENGTH * 4) throw new StepFailure(`“${step.path}” is too large to read as data`)
    const rows = /\.xlsx$/i.test(where) ? rowsOfXlsx(await readFile(where)) : parseCsv(await readFile(where, 'utf8'))
    run.setRows(rows)
    return `${rows.length} row${rows.length === 1 ? '' : 's'} of “${step.path}” are the data rows`
  }

  return {
    async perform(step, run) {
      try {
        switch (step.type) {
          case 'readData':
            return await readData(step, run)
          case 'writeData': {
            const where = await inside(step.path)
            const rows = run.table()
            await writeFile(where, tableAsFile(rows, step.format), { flag: step.replace ? 'w' : 'wx' }).catch(
              (error: NodeJS.ErrnoException) => {
                throw new StepFailure(error.code === 'EEXIST' ? `“${step.path}” exists already (the step may replace it)` : error.message)
              },
            )
            return `wrote ${rows.length} row${rows.length === 1 ? '' : 's'} to “${step.path}”`
          }
          case 'moveFile':
          case 'copyFile': {
            const from = await inside(step.from)
            const to = await inside(step.to)
            if (!(await exists(from))) throw new StepFailure(`“${step.from}” does not exist`)
            if (await exists(to)) throw new StepFailure(`“${step.to}” exists already`)
            if (step.type === 'copyFile') await copyFile(from, to, constants.COPYFILE_EXCL)
            else
              await rename(from, to).catch(async (error: NodeJS.ErrnoException) => {
                // Another disk: copy, then remove the original.
                if (error.code !== 'EXDEV') throw error
                await copyFile(from, to, constants.COPYFILE_EXCL)
                await unlink(from)
              })
            return `${step.type === 'copyFile' ? 'copied' : 'moved'} “${step.from}” to “${step.to}”`
          }
          case 'openFile': {
            const where = await inside(step.path)
            if (!(await exists(where))) throw new StepFailure(`“${step.path}” does not exist`)
            await open(where)
            return `opened “${step.path}”`
          }
        }
      } catch (error) {
        if (error instanceof StepFailure) throw error
        throw new StepFailure(error instanceof Error ? error.message : String(error))
      }
    },
  }
}
