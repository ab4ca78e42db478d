import { and, asc, eq, sql } from 'drizzle-orm'
import { ValidationError } from '#common/errors.ts'
import { fileName, MAX_AUTOMATION_FILE_BYTES, MAX_AUTOMATION_FILES } from '#common/file-steps.ts'
import type { DbOrTx } from '#server/db/client.ts'
import { automationFiles } from '#server/db/schema/index.ts'

// Files kept with an automation (docs/decisions/046): what its upload steps choose in a file input
// when the run has no file of that name (a form's attachment, a picture, a document to send).

/** What the builder and the API list of them: never the bytes. */
export interface AutomationFileSummary {
  name: string
  size: number
  createdAt: Date
}

const summary = { name: automationFiles.name, size: automationFiles.size, createdAt: automationFiles.createdAt }
const MEGABYTES = MAX_AUTOMATION_FILE_BYTES / 1024 / 1024
const ofAutomation = (automationId: string, name: string) =>
  and(eq(automationFiles.automationId, automationId), eq(automationFiles.name, name))

export function listAutomationFiles(db: DbOrTx, automationId: string): Promise<AutomationFileSummary[]> {
  return db.select(summary).from(automationFiles).where(eq(automationFiles.automationId, automationId)).orderBy(asc(automationFiles.name))
}

/** The file's bytes, or null when the automation keeps none of that name. */
export async function automationFileBytes(db: DbOrTx, automationId: string, name: string): Promise<Buffer | null> {
  const [file] = await db.select({ content: automationFiles.content }).from(automationFiles).where(ofAutomation(automationId, name))
  return file?.content ?? null
}

/**
 * Keeps a file with the automation, in place of one of the same name. Refused when its name is
 * not a file name (common/file-steps.ts), when it is empty,
 * larger than MAX_AUTOMATION_FILE_BYTES, or would be one file more than MAX_AUTOMATION_FILES.
 */
export async function writeAutomationFile(tx: DbOrTx, automationId: string, file: { name: string; bytes: Uint8Array }): Promise<void> {
  const named = fileName().safeParse(file.name)
  if (!named.success) {
    const message = named.error.issues[0]?.message ?? 'is not a file name'
    throw new ValidationError(`name: ${message}`, [{ path: 'name', message: `The file's name ${message}.` }])
  }
  if (file.bytes.byteLength === 0) throw new ValidationError('The file is empty.')
  if (file.bytes.byteLength > MAX_AUTOMATION_FILE_BYTES) throw new ValidationError(`The file is larger than ${MEGABYTES} MB.`)
  // Counted under a lock on the automation's files, so two uploads at once cannot both pass the limit.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`automation-files:${automationId}`}))`)
  const [others] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(automationFiles)
    .where(and(eq(automationFiles.automationId, automationId), sql`${automationFiles.name} <> ${named.data}`))
  if ((others?.count ?? 0) >= MAX_AUTOMATION_FILES)
    throw new ValidationError(`An automation keeps at most ${MAX_AUTOMATION_FILES} files: remove one first.`)
  const values = { size: file.bytes.byteLength, content: Buffer.from(file.bytes), createdAt: new Date() }
  await tx
    .insert(automationFiles)
    .values({ automationId, name: named.data, ...values })
    .onConflictDoUpdate({ target: [automationFiles.automationId, automationFiles.name], set: values })
}

/** Whether a file of that name was there to remove. */
export async function removeAutomationFile(tx: DbOrTx, automationId: string, name: string): Promise<boolean> {
  const removed = await tx.delete(automationFiles).where(ofAutomation(automationId, name)).returning({ name: automationFiles.name })
  return removed.length > 0
}

/** A copy of an automation keeps the same files (its "Copy of …"). */
export async function copyAutomationFiles(db: DbOrTx, fromId: string, toId: string): Promise<void> {
  await db.execute(
    sql`insert into ${automationFiles} (automation_id, name, size, content, created_at)
        select ${toId}, name, size, content, now() from ${automationFiles} where automation_id = ${fromId}`,
  )
}

/** How a cloud run's upload steps read the files kept with its automation (step-executor.ts). */
export const automationFileSource = (db: DbOrTx) => ({
  of: (automationId: string) => ({
    read: (name: string) => automationFileBytes(db, automationId, name),
    names: async () => (await listAutomationFiles(db, automationId)).map((file) => file.name),
  }),
})
