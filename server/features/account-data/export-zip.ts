import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import yazl from 'yazl'
import type { Db } from '#server/db/client.ts'
import type { RunFile } from '#server/db/schema/index.ts'
import type { RunFiles } from '#server/features/runs/run-files.ts'
import { automationFileBytes, automationFilesOf, memberDataJson, runsWithFiles, scopeOf } from './member-data.ts'

/** The runs' files one export holds at most: the newest runs' first (a plan may keep them for ever). */
export const EXPORT_RUN_FILES_MAX_BYTES = 2 * 1024 ** 3

const README = `Your Aether data

data.json          everything we hold about your account: profile, account and sign-in methods,
                   sessions, API keys and devices (never their secrets), workspaces, automations with
                   their steps, runs with their logs and extracted data, credits, subscriptions,
                   payments, and the audit log's entries about you.
automations/<id>/  the files kept with an automation (what its upload steps use).
runs/<id>/         a run's screenshots, step pictures, kept files (downloads, saved tables) and trace,
                   for runs whose files your plan still keeps (the newest first, up to ${EXPORT_RUN_FILES_MAX_BYTES / 1024 ** 3} GB;
                   runs-not-included.txt names the runs whose files did not fit, if any).
`

/** A name someone gave a file, safe as one part of a path in the zip: no folders, no control characters, never '.' or '..'. */
export function safeEntryName(name: string): string {
  const cleaned = [...name]
    .map((char) => (char.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim()
    .slice(0, 200)
  return cleaned === '' || /^\.+$/.test(cleaned) ? '_' : cleaned
}

/** Gives every entry a name no other entry has ("report.csv", "report (2).csv"). */
function uniqueNames() {
  const taken = new Set<string>()
  return (wanted: string) => {
    let name = wanted
    for (let n = 2; taken.has(name); n++) {
      const dot = wanted.lastIndexOf('.')
      name = dot > 0 ? `${wanted.slice(0, dot)} (${n})${wanted.slice(dot)}` : `${wanted} (${n})`
    }
    taken.add(name)
    return name
  }
}

/** A stream that reads its bytes only when the zip gets to it (a kept file may be a few megabytes). */
const lazyBytes = (read: () => Promise<Buffer | null>) =>
  Readable.from(
    (async function* () {
      const bytes = await read()
      if (bytes) yield bytes
    })(),
    { objectMode: false },
  )

/** The zip path of a stored run file: kept files under the member's name for them. */
function runEntryName(runId: string, stored: { name: string; kind: 'screenshot' | 'file' | 'trace' }, files: RunFile[]): string {
  if (stored.kind === 'trace') return `runs/${runId}/trace.zip`
  if (stored.kind === 'screenshot') return `runs/${runId}/screenshots/${stored.name}`
  const named = files.find((file) => file.file === stored.name)
  return `runs/${runId}/files/${safeEntryName(named?.name ?? stored.name)}`
}

/**
 * Writes a member's export (docs/decisions/065) to `file`: README.txt, data.json written as it is
 * read, the automations' kept files and the runs' files, streamed into the zip one after the other
 * (yazl reads each only when it is its turn and waits while the disk catches up). The zip is
 * written beside its place and renamed, so a half-written one is never served. Answers its size.
 */
export async function writeExportZip(options: {
  db: Db
  runFiles: Pick<RunFiles, 'stored'>
  userId: string
  now: Date
  file: string
  /** EXPORT_RUN_FILES_MAX_BYTES unless a test says otherwise. */
  maxRunFileBytes?: number
}): Promise<number> {
  const { db, runFiles, userId, now, file } = options
  const maxRunFileBytes = options.maxRunFileBytes ?? EXPORT_RUN_FILES_MAX_BYTES
  const zip = new yazl.ZipFile()
  const failed = new Promise<never>((_, reject) => zip.on('error', reject))
  failed.catch(() => {})
  // yazl does not listen to its input streams' errors: a failed read (the database) fails the zip.
  const source = (stream: Readable) => stream.on('error', (error) => zip.emit('error', error))
  // Its own name: a build taken up again (its first one seemed dead) never writes into another's.
  const part = `${file}.${randomUUID()}.part`
  await mkdir(path.dirname(file), { recursive: true })
  const written = pipeline(zip.outputStream, createWriteStream(part))
  try {
    const scope = await scopeOf(db, userId)
    zip.addBuffer(Buffer.from(README), 'README.txt', { mtime: now })
    zip.addReadStream(source(Readable.from(memberDataJson(db, scope, now), { objectMode: false })), 'data.json', { mtime: now })
    for (const kept of await automationFilesOf(db, scope)) {
      const name = `automations/${kept.automationId}/files/${safeEntryName(kept.name)}`
      zip.addReadStream(source(lazyBytes(() => automationFileBytes(db, kept.automationId, kept.name))), name, { mtime: now })
    }
    let included = 0
    const left: string[] = []
    for (const run of await runsWithFiles(db, scope)) {
      if (included + run.storedBytes > maxRunFileBytes) {
        left.push(run.id)
        continue
      }
      included += run.storedBytes
      const unique = uniqueNames()
      for (const stored of await runFiles.stored(run.id)) {
        // Pictures and traces are compressed already.
        zip.addFile(stored.path, unique(runEntryName(run.id, stored, run.files)), { compress: stored.kind === 'file' })
      }
    }
    if (left.length) {
      const list = `The files of these runs did not fit in this export (${maxRunFileBytes} bytes at most); each run's page still has them:\n\n${left.join('\n')}\n`
      zip.addBuffer(Buffer.from(list), 'runs-not-included.txt', { mtime: now })
    }
    zip.end()
    await Promise.race([written, failed])
    await rename(part, file)
    return (await stat(file)).size
  } catch (error) {
    ;(zip.outputStream as Readable).destroy()
    await written.catch(() => {})
    await rm(part, { force: true })
    throw error
  }
}
