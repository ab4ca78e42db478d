import { and, eq } from 'drizzle-orm'
import { checkRows, columnKey, parseCsv } from '#common/data-rows.ts'
import { LimitReached, NotFound, ValidationError } from '#common/errors.ts'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { DataRow } from '#common/workflow-interpreter.ts'
import type { DbOrTx } from '#server/db/client.ts'
import { automationRuns } from '#server/db/schema/index.ts'

/** Where a run's data rows come from (docs/decisions/046): records, CSV text, or an earlier run's extracted table. */
export type RunDataSource = { rows: unknown[] } | { csv: string } | { fromRun: string }

/** An earlier run's extracted table as data rows: its fields as columns `{{row.…}}` can name, empty cells as ''. */
function extractedAsRows(extracted: readonly Record<string, string | null>[]): DataRow[] {
  const header = [...new Set(extracted.flatMap((row) => Object.keys(row)))]
  const body = extracted.map((row) => header.map((field) => row[field] ?? ''))
  const keys = header.map((field, position) => columnKey(field, position))
  return checkRows(body.map((cells) => Object.fromEntries(keys.map((key, position) => [key, cells[position] ?? '']))))
}

/**
 * The rows a run starts with, checked (common/data-rows.ts): only for steps with a "for each
 * row" block, which must have some, within the plan's rows per run (null: no limit of the plan's).
 */
export async function runDataIn(
  tx: DbOrTx,
  workspaceId: string,
  steps: readonly AutomationStep[],
  source: RunDataSource | undefined,
  plan: { name: string; dataRowLimit: number | null },
): Promise<DataRow[]> {
  const goesThroughRows = steps.some((step) => step.type === 'forEachRow')
  // A readData step reads the rows on the member's machine while the run runs.
  const readsRows = steps.some((step) => step.type === 'readData')
  if (!source) {
    if (goesThroughRows && !readsRows)
      throw new ValidationError(
        'This automation goes through rows of data ("for each row"): start it with rows (a CSV file, pasted rows, or an earlier run\'s extracted data).',
      )
    return []
  }
  if (!goesThroughRows)
    throw new ValidationError(
      'This automation has no "for each row" block, so it takes no rows of data: add one, or start it without rows.',
    )
  const rows = await rowsOf(tx, workspaceId, source)
  if (rows.length === 0)
    throw new ValidationError('The data has no rows: its first line names the columns, and each line after it is a row.')
  if (plan.dataRowLimit !== null && rows.length > plan.dataRowLimit)
    throw new LimitReached(
      `The ${plan.name} plan takes up to ${plan.dataRowLimit.toLocaleString('en')} rows of data per run; this data has ${rows.length.toLocaleString('en')}. Split it, or upgrade.`,
      'PLAN_LIMIT',
    )
  return rows
}

async function rowsOf(tx: DbOrTx, workspaceId: string, source: RunDataSource): Promise<DataRow[]> {
  if ('csv' in source) return parseCsv(source.csv)
  if ('rows' in source) return checkRows(source.rows)
  const [earlier] = await tx
    .select({ extracted: automationRuns.extracted })
    .from(automationRuns)
    .where(and(eq(automationRuns.id, source.fromRun), eq(automationRuns.workspaceId, workspaceId)))
  if (!earlier) throw new NotFound('Run not found')
  if (earlier.extracted.length === 0) throw new ValidationError('That run extracted no data to go through.')
  return extractedAsRows(earlier.extracted)
}
