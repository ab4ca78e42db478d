import { eq } from 'drizzle-orm'
import { columnsOf } from '#common/data-rows.ts'
import type { DataRow } from '#common/workflow-interpreter.ts'
import type { DbOrTx } from '#server/db/client.ts'
import { automationDataRows } from '#server/db/schema/index.ts'

// Rows of data kept with an automation (docs/decisions/046): a run started without rows of its
// own (a schedule, a trigger URL, Run in cloud with nothing given) goes through these.

export interface KeptRows {
  name: string
  rows: DataRow[]
}

/** What the builder and the API show of them: never the rows themselves, which may be many. */
export interface KeptRowsSummary {
  name: string
  rowCount: number
  columns: string[]
  updatedAt: Date
}

/** Keeps these rows with the automation in place of any before, or (null) keeps none. */
export async function writeKeptRows(tx: DbOrTx, automationId: string, kept: KeptRows | null): Promise<void> {
  if (!kept) {
    await tx.delete(automationDataRows).where(eq(automationDataRows.automationId, automationId))
    return
  }
  const values = { name: kept.name, rows: kept.rows, rowCount: kept.rows.length, columns: columnsOf(kept.rows), updatedAt: new Date() }
  await tx
    .insert(automationDataRows)
    .values({ automationId, ...values })
    .onConflictDoUpdate({ target: automationDataRows.automationId, set: values })
}

/** A copy of an automation keeps the same rows (its "Copy of …"). */
export async function copyKeptRows(db: DbOrTx, fromId: string, toId: string): Promise<void> {
  const [kept] = await db.select().from(automationDataRows).where(eq(automationDataRows.automationId, fromId))
  if (kept) await db.insert(automationDataRows).values({ ...kept, automationId: toId, updatedAt: new Date() })
}

export async function keptRowsSummary(db: DbOrTx, automationId: string): Promise<KeptRowsSummary | null> {
  const [kept] = await db
    .select({
      name: automationDataRows.name,
      rowCount: automationDataRows.rowCount,
      columns: automationDataRows.columns,
      updatedAt: automationDataRows.updatedAt,
    })
    .from(automationDataRows)
    .where(eq(automationDataRows.automationId, automationId))
  return kept ?? null
}

export async function keptRowsOf(db: DbOrTx, automationId: string): Promise<DataRow[] | null> {
  const [kept] = await db
    .select({ rows: automationDataRows.rows })
    .from(automationDataRows)
    .where(eq(automationDataRows.automationId, automationId))
  return kept?.rows ?? null
}
