import type { Download, Locator, Page } from 'playwright-core'
import type { AutomationStep } from '#common/automation-steps.ts'
import { MAX_RUN_FILE_BYTES, MAX_RUN_FILES, UNSAFE_FILE_NAME_CHARACTERS } from '#common/file-steps.ts'
import { RUN_FILES_FULL } from '#common/run-steps.ts'
import type { ExtractedRecord } from '#common/extracted-table.ts'
import type { Target } from '#common/targets.ts'
import { short } from '#common/step-log-words.ts'
import { StepFailure, seconds } from '#server/browser/step-context.ts'
import type { TargetGuard } from '#server/browser/target-guard.ts'
import type { RunFile } from '#server/db/schema/index.ts'
import { tableAsFile } from '#server/tables/table-files.ts'
import { keptFileName, type RunFiles } from './run-files.ts'

/** The files kept with one automation, as a run reads them. */
export interface AutomationFileSource {
  read(name: string): Promise<Buffer | null>
  names(): Promise<string[]>
}

type FileStep = Extract<AutomationStep, { type: 'download' | 'upload' | 'saveTable' }>

const MEGABYTES = MAX_RUN_FILE_BYTES / 1024 / 1024

/** A name the run's file list and a download can carry: no folders or control characters, at most 100 characters. */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = name.replace(UNSAFE_FILE_NAME_CHARACTERS, '_').trim().slice(0, 100)
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : fallback
}

const TYPES: Record<string, string> = { csv: 'text/csv', json: 'application/json', txt: 'text/plain', pdf: 'application/pdf' }
const typeOf = (name: string) => TYPES[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream'

/**
 * The file steps of one run (docs/decisions/046): a download kept with the run's files, a table
 * written as one, and one of them (or one kept with the automation) chosen in a file input. Files are kept as bytes under a name
 * the run gives (file-<step>-<n>), listed with the member's name for them, at most
 * MAX_RUN_FILES of MAX_RUN_FILE_BYTES each.
 */
export function createRunFileSteps(deps: {
  runId: string
  files: Pick<RunFiles, 'saveFile' | 'readFile'> | null
  guard: TargetGuard
  table: () => ExtractedRecord[]
  onKept: (file: RunFile) => void
  /** Counts the bytes in the run's files (MAX_RUN_STORED_BYTES); false when they do not fit. */
  reserve: (bytes: number) => boolean
  /** The files kept with the run's automation (cloud runs), for upload steps the run's own files do not answer. */
  automationFiles?: AutomationFileSource | null
}) {
  const kept: RunFile[] = []

  async function keep(step: number, name: string, bytes: Uint8Array): Promise<RunFile> {
    if (!deps.files) throw new StepFailure('files are kept by cloud runs; this runner keeps none')
    if (kept.length >= MAX_RUN_FILES) throw new StepFailure(`a run keeps at most ${MAX_RUN_FILES} files`)
    if (bytes.byteLength > MAX_RUN_FILE_BYTES) throw new StepFailure(`the file is larger than ${MEGABYTES} MB`)
    if (!deps.reserve(bytes.byteLength)) throw new StepFailure(RUN_FILES_FULL)
    const file: RunFile = { name, file: keptFileName(step, kept.length + 1), size: bytes.byteLength, step }
    await deps.files.saveFile(deps.runId, file.file, bytes)
    // A later file of the same name is the one a later upload means.
    kept.unshift(file)
    deps.onKept(file)
    return file
  }

  /** The download's bytes, refused past the size limit without reading the rest. */
  async function bytesOf(download: Download): Promise<Uint8Array> {
    const failure = await download.failure()
    if (failure) throw new StepFailure(`the download failed: ${short(failure, 200)}`)
    const stream = await download.createReadStream()
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of stream) {
      size += (chunk as Buffer).byteLength
      if (size > MAX_RUN_FILE_BYTES) {
        stream.destroy()
        throw new StepFailure(`the file is larger than ${MEGABYTES} MB`)
      }
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks)
  }

  /** The download's bytes within the step's time; a download still going then is cancelled (its part on disk goes). */
  async function withinTime(reading: Promise<Uint8Array>, download: Download, timeoutMs: number): Promise<Uint8Array> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StepFailure(`the download took longer than ${seconds(timeoutMs)}`)), timeoutMs)
    })
    try {
      return await Promise.race([reading, late])
    } catch (error) {
      await download.cancel().catch(() => {})
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  /** Waits for the download the action starts. */
  async function downloadFrom(page: Page, start: () => Promise<unknown>, timeoutMs: number): Promise<Download> {
    const started = page.waitForEvent('download', { timeout: timeoutMs })
    await start()
    try {
      return await started
    } catch {
      throw new StepFailure(`no download started within ${seconds(timeoutMs)}`)
    }
  }

  /** The bytes an upload step means: the run's own file of that name (the latest), else the automation's. */
  async function fileNamed(name: string): Promise<Buffer> {
    const file = kept.find((each) => each.name === name)
    if (file && deps.files) return deps.files.readFile(deps.runId, file.file)
    const automations = deps.automationFiles
    const bytes = automations ? await automations.read(name) : null
    if (bytes) return bytes
    const names = [...kept.map((each) => each.name), ...(automations ? await automations.names() : [])]
    const known = [...new Set(names)].map((each) => `“${each}”`).join(', ')
    throw new StepFailure(
      `neither the run nor the automation has a file named “${short(name, 100)}”${known ? ` (there are ${known})` : ''}`,
    )
  }

  return {
    async perform(step: FileStep, page: Page, n: number, timeoutMs: number, find: (target: Target) => Promise<Locator>) {
      switch (step.type) {
        case 'download': {
          let download: Download
          if (step.target) {
            const link = await find(step.target)
            download = await downloadFrom(page, () => link.click({ timeout: timeoutMs }), timeoutMs)
          } else {
            const url = step.url as string
            const verdict = await deps.guard.checkUrl(url)
            if (!verdict.allowed) throw new StepFailure(verdict.reason)
            // From the page, so the request goes where the page's go (the target guard) with its cookies.
            download = await downloadFrom(
              page,
              () =>
                page.evaluate((address) => {
                  const anchor = document.createElement('a')
                  anchor.href = address
                  anchor.download = ''
                  anchor.style.display = 'none'
                  document.body.append(anchor)
                  anchor.click()
                  anchor.remove()
                }, url),
              timeoutMs,
            )
          }
          const name = safeFileName(step.name ?? download.suggestedFilename(), `download-${n}`)
          const file = await keep(n, name, await withinTime(bytesOf(download), download, timeoutMs))
          return `kept “${file.name}” (${file.size.toLocaleString('en')} bytes)`
        }
        case 'saveTable': {
          const rows = deps.table()
          const file = await keep(n, safeFileName(step.name, `data.${step.format}`), tableAsFile(rows, step.format))
          return `saved ${rows.length} row${rows.length === 1 ? '' : 's'} as “${file.name}”`
        }
        case 'upload': {
          const buffer = await fileNamed(step.file)
          const input = await find(step.target)
          await input.setInputFiles({ name: step.file, mimeType: typeOf(step.file), buffer }, { timeout: timeoutMs })
          return `chose “${step.file}”`
        }
      }
    },
  }
}
