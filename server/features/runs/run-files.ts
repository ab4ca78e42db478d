import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { NotFound } from '#common/errors.ts'
import { STEP_SHOT_NAME } from '#common/run-steps.ts'

/** Names the worker gives screenshots: the step number and a counter (PNG), or a step's picture (JPEG, run-steps.ts). */
const SCREENSHOT_NAME = new RegExp(`^step-\\d{1,4}-\\d{1,4}\\.png$|${STEP_SHOT_NAME.source}`)
/** The name a run's screenshot gets: its step and a counter (SCREENSHOT_NAME). */
export const screenshotName = (step: number, index: number) => `step-${step}-${index}.png`

/** Names the worker gives the files a run keeps (downloads, saved tables): the step and a counter. */
const KEPT_NAME = /^file-\d{1,4}-\d{1,4}$/
/** The name a file the run keeps is stored under (the member's name for it is in the run's list). */
export const keptFileName = (step: number, index: number) => `file-${step}-${index}`

/** A run's Playwright trace (docs/decisions/060): one per run, with its secrets masked. */
const TRACE_NAME = /^trace\.zip$/

/** The live view's frame, in the run's folder while the run runs. */
const LIVE_FRAME = 'live.jpg'

const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** How a stored screenshot is served: step pictures are JPEG, the others PNG. */
export const screenshotType = (name: string) => (STEP_SHOT_NAME.test(name) ? 'image/jpeg' : 'image/png')

/** Files a cloud run leaves behind (screenshots, downloads, saved tables), on local disk under DATA_DIR/runs/<run id>/. */
export function createRunFiles(options: { dataDir: string }) {
  const root = path.resolve(options.dataDir, 'runs')
  /** One kind of file a run keeps: the names it may have, and what a missing one is called. */
  const kind = (names: RegExp, missing: string) => {
    const fileOf = (runId: string, name: string) => {
      if (!RUN_ID.test(runId) || !names.test(name)) throw new NotFound(missing)
      return path.join(root, runId, name)
    }
    return {
      async save(runId: string, name: string, bytes: Uint8Array): Promise<void> {
        const file = fileOf(runId, name)
        await mkdir(path.dirname(file), { recursive: true })
        await writeFile(file, bytes)
      },
      async read(runId: string, name: string): Promise<Buffer> {
        try {
          return await readFile(fileOf(runId, name))
        } catch (error) {
          if (error instanceof NotFound) throw error
          throw new NotFound(missing)
        }
      },
    }
  }
  const screenshots = kind(SCREENSHOT_NAME, 'No such screenshot')
  const kept = kind(KEPT_NAME, 'No such file')
  const trace = kind(TRACE_NAME, 'This run has no trace')
  const liveFrameOf = (runId: string) => (RUN_ID.test(runId) ? path.join(root, runId, LIVE_FRAME) : null)
  let liveWrites = 0

  return {
    screenshotName,
    saveScreenshot: screenshots.save,
    readScreenshot: screenshots.read,
    /** A file the run keeps (docs/decisions/046): a download or a saved table, stored under keptFileName. */
    saveFile: kept.save,
    readFile: kept.read,

    /** The run's trace (docs/decisions/060), masked before it is saved. */
    saveTrace: (runId: string, bytes: Uint8Array) => trace.save(runId, 'trace.zip', bytes),
    readTrace: (runId: string) => trace.read(runId, 'trace.zip'),

    /**
     * The live view's latest frame (docs/decisions/058): written aside, then renamed over the last
     * one, so a reader in any process gets a whole picture. Never served as a run's file.
     */
    async saveLiveFrame(runId: string, jpeg: Uint8Array): Promise<void> {
      const file = liveFrameOf(runId)
      if (!file) return
      const aside = `${file}.${process.pid}-${++liveWrites}`
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(aside, jpeg)
      await rename(aside, file)
    },
    async readLiveFrame(runId: string): Promise<Buffer | null> {
      const file = liveFrameOf(runId)
      return file ? readFile(file).catch(() => null) : null
    },
    async removeLiveFrame(runId: string): Promise<void> {
      const file = liveFrameOf(runId)
      if (file) await rm(file, { force: true })
    },

    /**
     * The files stored for a run, each with its kind and where it is (a member's data export takes
     * them along, docs/decisions/065); the live view's frame and half-written files are not among them.
     */
    async stored(runId: string): Promise<{ name: string; kind: 'screenshot' | 'file' | 'trace'; path: string }[]> {
      if (!RUN_ID.test(runId)) return []
      const folder = path.join(root, runId)
      const names = await readdir(folder).catch(() => [] as string[])
      return names.sort().flatMap((name) => {
        const kind = SCREENSHOT_NAME.test(name) ? 'screenshot' : KEPT_NAME.test(name) ? 'file' : TRACE_NAME.test(name) ? 'trace' : null
        return kind ? [{ name, kind, path: path.join(folder, name) } as const] : []
      })
    },

    /** Removes a run's files (when its member's account goes, or the run is purged). */
    async remove(runId: string): Promise<void> {
      if (!RUN_ID.test(runId)) return
      await rm(path.join(root, runId), { recursive: true, force: true })
    },
  }
}

export type RunFiles = ReturnType<typeof createRunFiles>
