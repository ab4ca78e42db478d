import { createReadStream } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { and, asc, desc, eq, gt, inArray, lte, ne, or } from 'drizzle-orm'
import {
  DATA_EXPORT_EVERY_HOURS,
  DATA_EXPORT_LINK_DAYS,
  DATA_EXPORT_TRIES_A_DAY,
  longDate,
  type DataExportStatus,
} from '#common/account-data.ts'
import { AppError, Conflict, NotFound, RateLimited } from '#common/errors.ts'
import { READ_ONLY_VIEW_CODE } from '#common/view-as.ts'
import type { Db } from '#server/db/client.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { dataExports, users } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/features/mail/mailer.ts'
import type { RunFiles } from '#server/features/runs/run-files.ts'
import type { Logger } from '#server/logger.ts'
import type { createUrlSigner } from '#server/url-signer.ts'
import { writeExportZip } from './export-zip.ts'

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS
/** A build that has not finished after this long died with its process: it is taken up again. */
const STALE_BUILD_MS = 30 * 60 * 1000
/** How often the worker process looks for exports to build and files to remove. */
const LOOK_EVERY_MS = 15_000
const PURPOSE = 'data-export'

export type DataExport = typeof dataExports.$inferSelect

/** What the member (Settings, GET /api/account/export) sees of an export. */
export interface DataExportView {
  id: string
  status: DataExportStatus
  requestedAt: Date
  readyAt: Date | null
  expiresAt: Date | null
  bytes: number | null
  /** The signed-in download (the page link; the API's own is `apiUrl`), while it is ready. */
  downloadUrl: string | null
  apiUrl: string | null
}

class LinkExpired extends AppError {
  constructor() {
    super(410, 'This download link has expired and its file was deleted. Ask for a new export on the Settings page.', 'LINK_EXPIRED')
  }
}

/** "1.2 MB", for the e-mail. */
const sizeOf = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`

/**
 * A member's download of everything we hold about them (docs/decisions/065). Asking queues one (one
 * at a time, one a day); the worker process builds it in the background (export-zip.ts) into
 * DATA_DIR/exports, e-mails a link signed for the member and the export that lasts
 * DATA_EXPORT_LINK_DAYS, and removes the file when it expires. Downloading needs the link and the
 * member's own session: a forwarded or logged link alone gives nothing away.
 */
export function createDataExportService(deps: {
  db: Db
  runFiles: Pick<RunFiles, 'stored'>
  mailer: Pick<Mailer, 'send'>
  signer: ReturnType<typeof createUrlSigner>
  publicUrl: string
  dataDir: string
  logger: Logger
  clock?: () => Date
}) {
  const { db, runFiles, mailer, signer, logger } = deps
  const clock = deps.clock ?? (() => new Date())
  const folder = path.resolve(deps.dataDir, 'exports')
  const fileOf = (id: string) => path.join(folder, `${id}.zip`)
  let wake: (() => void) | null = null

  // The signature covers the export, its member and the expiry: a link names one file of one member for a fixed time.
  const valueOf = (row: Pick<DataExport, 'id' | 'userId'>, expires: number) => `${row.id}/${row.userId}/${expires}`

  /** The page link (e-mailed, on Settings) and the API's, while the export is ready. */
  function linksOf(row: DataExport): { downloadUrl: string; apiUrl: string } | null {
    if (row.status !== 'ready' || !row.expiresAt) return null
    const expires = Math.floor(row.expiresAt.getTime() / 1000)
    // Named `token` so that the mailer keeps it out of its delivery record (mailer.ts redactTokens).
    const query = `expires=${expires}&token=${signer.sign(PURPOSE, valueOf(row, expires))}`
    return {
      downloadUrl: `${deps.publicUrl}/settings/data-export/${row.id}?${query}`,
      apiUrl: `${deps.publicUrl}/api/account/export/${row.id}/download?${query}`,
    }
  }

  function view(row: DataExport): DataExportView {
    const links = linksOf(row)
    return {
      id: row.id,
      status: row.status,
      requestedAt: row.createdAt,
      readyAt: row.readyAt,
      expiresAt: row.expiresAt,
      bytes: row.bytes,
      downloadUrl: links?.downloadUrl ?? null,
      apiUrl: links?.apiUrl ?? null,
    }
  }

  /** The next export to build (or one whose build died), marked as building: one worker takes each. */
  async function claim(now: Date): Promise<DataExport | null> {
    const stale = new Date(now.getTime() - STALE_BUILD_MS)
    return db.transaction(async (tx) => {
      const [next] = await tx
        .select()
        .from(dataExports)
        .where(or(eq(dataExports.status, 'queued'), and(eq(dataExports.status, 'building'), lte(dataExports.startedAt, stale))))
        .orderBy(dataExports.createdAt)
        .limit(1)
        .for('update', { skipLocked: true })
      if (!next) return null
      const [claimed] = await tx
        .update(dataExports)
        .set({ status: 'building', startedAt: now })
        .where(eq(dataExports.id, next.id))
        .returning()
      return claimed ?? null
    })
  }

  async function build(row: DataExport, now: Date): Promise<void> {
    try {
      const bytes = await writeExportZip({ db, runFiles, userId: row.userId, now, file: fileOf(row.id) })
      const expiresAt = new Date(now.getTime() + DATA_EXPORT_LINK_DAYS * DAY_MS)
      const [ready] = await db
        .update(dataExports)
        .set({ status: 'ready', readyAt: now, expiresAt, bytes })
        .where(and(eq(dataExports.id, row.id), eq(dataExports.status, 'building')))
        .returning()
      // Its member was erased meanwhile: the row went with them, the file goes too.
      if (!ready) {
        await rm(fileOf(row.id), { force: true })
        return
      }
      await mailReady(ready)
    } catch (error) {
      logger.error({ err: error, exportId: row.id }, 'data export: the build failed')
      await rm(fileOf(row.id), { force: true })
      await db
        .update(dataExports)
        .set({ status: 'failed', error: 'The export could not be built. Please ask for a new one.' })
        .where(eq(dataExports.id, row.id))
    }
  }

  async function mailReady(row: DataExport) {
    const links = linksOf(row)
    const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId))
    if (!links || !account || !row.expiresAt) return
    await mailer.send({
      to: account.email,
      subject: 'Your Aether data export is ready',
      text:
        `The export of your Aether account ${account.email} is ready: everything we hold about you (data.json) ` +
        `and your runs' files, in one zip file of ${sizeOf(row.bytes ?? 0)}.\n\n` +
        `Download it here (sign in as ${account.email} if you are asked to):\n\n${links.downloadUrl}\n\n` +
        `The link works until ${longDate(row.expiresAt)}; then the file is deleted. You can ask for a new export ` +
        `on the Settings page once a day.\n\nIf you did not ask for this, change your password.\n\n— Aether`,
    })
  }

  /** Builds every export that is due, one after the other; how many. */
  async function buildDue(now?: Date): Promise<number> {
    let built = 0
    for (let row = await claim(now ?? clock()); row; row = await claim(now ?? clock())) {
      await build(row, now ?? clock())
      built++
    }
    return built
  }

  /** Removes the files of exports whose link expired; how many. */
  async function removeExpired(now = clock()): Promise<number> {
    const due = await db
      .select({ id: dataExports.id })
      .from(dataExports)
      .where(and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, now)))
    for (const row of due) {
      await rm(fileOf(row.id), { force: true })
      await db.update(dataExports).set({ status: 'expired' }).where(eq(dataExports.id, row.id))
    }
    await removeAbandonedParts(now)
    return due.length
  }

  /** Half-written zips whose build died with its process (a failed build removes its own). */
  async function removeAbandonedParts(now: Date) {
    const names = await readdir(folder).catch(() => [] as string[])
    for (const name of names.filter((candidate) => candidate.endsWith('.part'))) {
      const part = path.join(folder, name)
      const modified = await stat(part).then(
        (stats) => stats.mtimeMs,
        () => null,
      )
      if (modified !== null && modified < now.getTime() - 2 * STALE_BUILD_MS) await rm(part, { force: true })
    }
  }

  return {
    view,

    /**
     * Asks for an export (Settings, POST /api/account/export). Refused while one is being made, and
     * within DATA_EXPORT_EVERY_HOURS of the last one asked for (a failed one does not count, up to
     * DATA_EXPORT_TRIES_A_DAY asked for in that time).
     */
    async request(member: { id: string }): Promise<DataExportView> {
      const now = clock()
      const [last] = await db
        .select()
        .from(dataExports)
        .where(and(eq(dataExports.userId, member.id), ne(dataExports.status, 'failed')))
        .orderBy(desc(dataExports.createdAt))
        .limit(1)
      if (last && (last.status === 'queued' || last.status === 'building')) {
        throw new Conflict('Your data export is being prepared. We will e-mail you a link as soon as it is ready.')
      }
      const nextAt = last ? last.createdAt.getTime() + DATA_EXPORT_EVERY_HOURS * HOUR_MS : 0
      if (nextAt > now.getTime()) {
        const wait = nextAt - now.getTime()
        const hours = Math.ceil(wait / HOUR_MS)
        throw new RateLimited(
          `You can ask for one data export a day. Your last one was ${last?.status === 'ready' ? 'made' : 'asked for'} less than ${DATA_EXPORT_EVERY_HOURS} hours ago; ` +
            `ask again in ${hours === 1 ? 'an hour' : `${hours} hours`}${last?.status === 'ready' ? ', or download it from the link we sent' : ''}.`,
          Math.ceil(wait / 1000),
        )
      }
      const tries = await db
        .select({ at: dataExports.createdAt })
        .from(dataExports)
        .where(
          and(eq(dataExports.userId, member.id), gt(dataExports.createdAt, new Date(now.getTime() - DATA_EXPORT_EVERY_HOURS * HOUR_MS))),
        )
        .orderBy(asc(dataExports.createdAt))
      const oldest = tries[0]
      if (oldest && tries.length >= DATA_EXPORT_TRIES_A_DAY) {
        const wait = oldest.at.getTime() + DATA_EXPORT_EVERY_HOURS * HOUR_MS - now.getTime()
        const hours = Math.max(1, Math.ceil(wait / HOUR_MS))
        throw new RateLimited(
          `Your last ${DATA_EXPORT_TRIES_A_DAY} data exports could not be made. Please ask again in ${hours === 1 ? 'an hour' : `${hours} hours`}, or write to us if it keeps failing.`,
          Math.max(1, Math.ceil(wait / 1000)),
        )
      }
      try {
        const [row] = await db.insert(dataExports).values({ userId: member.id, createdAt: now }).returning()
        if (!row) throw new Error('the export was not recorded')
        wake?.()
        return view(row)
      } catch (error) {
        // Two requests at once: the unique index let one through.
        if (isUniqueViolation(error))
          throw new Conflict('Your data export is being prepared. We will e-mail you a link as soon as it is ready.')
        throw error
      }
    },

    /** The member's latest export (whatever became of it), or null. */
    async latest(userId: string): Promise<DataExportView | null> {
      const [row] = await db.select().from(dataExports).where(eq(dataExports.userId, userId)).orderBy(desc(dataExports.createdAt)).limit(1)
      return row ? view(row) : null
    },

    /**
     * The file a download link names, for its own member only: a wrong signature, another member's
     * export or a missing one is 404; a link past its time is 410 with what to do.
     */
    async download(member: { id: string; email: string; viewedBy?: unknown }, id: string, expires: number, token: string) {
      // An admin viewing the app as the member (docs/decisions/064) sees their pages, not all of their data at once.
      if (member.viewedBy) {
        throw new AppError(
          403,
          `Read-only: you are viewing as ${member.email}. Their data export is theirs alone to download.`,
          READ_ONLY_VIEW_CODE,
        )
      }
      const [row] = /^[0-9a-f-]{36}$/.test(id) ? await db.select().from(dataExports).where(eq(dataExports.id, id)) : []
      if (!row || row.userId !== member.id || !Number.isSafeInteger(expires) || !signer.verify(PURPOSE, valueOf(row, expires), token)) {
        throw new NotFound('No such download. Open the link from your most recent e-mail, or ask for a new export on the Settings page.')
      }
      const now = clock().getTime()
      if (row.status !== 'ready' || expires * 1000 <= now || (row.expiresAt?.getTime() ?? 0) <= now) throw new LinkExpired()
      const file = fileOf(row.id)
      const size = await stat(file).then(
        (stats) => stats.size,
        () => null,
      )
      if (size === null) throw new LinkExpired()
      return {
        size,
        name: `aether-data-${row.createdAt.toISOString().slice(0, 10)}.zip`,
        /** The zip's bytes, read as they are sent. */
        open: () => Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
      }
    },

    /** Builds what is due and removes what expired (the worker's loop; tests call it with their time). */
    async sweep(now?: Date): Promise<{ built: number; removed: number }> {
      return { built: await buildDue(now), removed: await removeExpired(now) }
    },

    /** The ids of a member's exports (their account is being erased: the files go once the rows have). */
    async idsOf(userId: string): Promise<string[]> {
      const rows = await db.select({ id: dataExports.id }).from(dataExports).where(eq(dataExports.userId, userId))
      return rows.map((row) => row.id)
    },

    /** Removes these exports' files (whatever their rows became). */
    async removeFiles(ids: string[]): Promise<void> {
      for (const id of ids) await rm(fileOf(id), { force: true })
    },

    /** Whether any of these is being built now (the erasure waits for it). */
    async building(userIds: string[]): Promise<boolean> {
      if (!userIds.length) return false
      const [row] = await db
        .select({ id: dataExports.id })
        .from(dataExports)
        .where(and(inArray(dataExports.userId, userIds), eq(dataExports.status, 'building')))
        .limit(1)
      return Boolean(row)
    },

    /**
     * Looks every LOOK_EVERY_MS, in this process (the one that runs the cloud worker); an export asked
     * for in this process starts at once. A failed sweep is logged and tried again.
     */
    start() {
      let running: Promise<void> | null = null
      let again = false
      const run = () => {
        if (running) {
          again = true
          return
        }
        running = this.sweep()
          .then(({ built, removed }) => {
            if (built || removed) logger.info({ built, removed }, 'data exports: built and removed')
          })
          .catch((error: unknown) => logger.warn({ err: error }, 'data exports: the sweep failed'))
          .finally(() => {
            running = null
            if (again) {
              again = false
              run()
            }
          })
      }
      wake = run
      run()
      const timer = setInterval(run, LOOK_EVERY_MS)
      timer.unref()
      return {
        stop: async () => {
          clearInterval(timer)
          wake = null
          await running
        },
      }
    },
  }
}

export type DataExportService = ReturnType<typeof createDataExportService>
