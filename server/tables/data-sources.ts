import { and, eq } from 'drizzle-orm'
import { checkRows, parseCsv, rowsFromTable } from '#common/data-rows.ts'
import { NotFound, ValidationError } from '#common/errors.ts'
import type { DataRow } from '#common/workflow-interpreter.ts'
import type { DbOrTx } from '#server/db/client.ts'
import { automationRuns } from '#server/db/schema/index.ts'
import { rowsOfXlsx } from './table-files.ts'

/** Where a run's data rows come from (docs/decisions/046): records, CSV text, an Excel workbook, or an earlier run's extracted table. */
export type RunDataSource = { rows: unknown[] } | { csv: string } | { xlsx: Uint8Array } | { fromRun: string }

/** The one way a start gives its data rows, if any (two at once is an error). */
export function dataSourceOf(body: { rows?: unknown[]; csv?: string; xlsx?: string; rowsFromRun?: string }): RunDataSource | undefined {
  const given = [body.rows, body.csv, body.xlsx, body.rowsFromRun].filter((way) => way !== undefined).length
  if (given > 1) throw new ValidationError('Give the data one way: rows, csv, xlsx or rowsFromRun.')
  if (body.rows !== undefined) return { rows: body.rows }
  if (body.csv !== undefined) return { csv: body.csv }
  if (body.xlsx !== undefined) return { xlsx: Buffer.from(body.xlsx, 'base64') }
  if (body.rowsFromRun !== undefined) return { fromRun: body.rowsFromRun }
  return undefined
}

/** An earlier run's extracted table as data rows: its fields as columns `{{row.…}}` can name, empty cells as ''. */
function extractedAsRows(extracted: readonly Record<string, string | null>[]): DataRow[] {
  const header = [...new Set(extracted.flatMap((row) => Object.keys(row)))]
  return rowsFromTable(
    header,
    extracted.map((row) => header.map((field) => row[field] ?? '')),
  )
}

/** The rows a source gives, checked; an earlier run's must be of this workspace. */
export async function rowsOf(tx: DbOrTx, workspaceId: string, source: RunDataSource): Promise<DataRow[]> {
  if ('csv' in source) return parseCsv(source.csv)
  if ('xlsx' in source) return rowsOfXlsx(source.xlsx)
  if ('rows' in source) return checkRows(source.rows)
  const [earlier] = await tx
    .select({ extracted: automationRuns.extracted })
    .from(automationRuns)
    .where(and(eq(automationRuns.id, source.fromRun), eq(automationRuns.workspaceId, workspaceId)))
  if (!earlier) throw new NotFound('Run not found')
  if (earlier.extracted.length === 0) throw new ValidationError('That run extracted no data to go through.')
  return extractedAsRows(earlier.extracted)
}
