import { LimitReached, ValidationError } from '#common/errors.ts'
import type { AutomationStep } from '#common/automation-steps.ts'
import type { DataRow } from '#common/workflow-interpreter.ts'
import type { DbOrTx } from '#server/db/client.ts'
import { rowsOf, type RunDataSource } from '#server/tables/data-sources.ts'

/**
 * The rows a run starts with, checked (common/data-rows.ts): only for steps with a "for each
 * row" block, which must have some (given with the start, or else those kept with the
 * automation), within the plan's rows per run (null: no limit of the plan's).
 */
export async function runDataIn(
  tx: DbOrTx,
  workspaceId: string,
  steps: readonly AutomationStep[],
  source: RunDataSource | undefined,
  plan: { name: string; dataRowLimit: number | null },
  kept: () => Promise<DataRow[] | null>,
): Promise<DataRow[]> {
  const goesThroughRows = steps.some((step) => step.type === 'forEachRow')
  // A readData step reads the rows on the member's machine while the run runs.
  const readsRows = steps.some((step) => step.type === 'readData')
  if (!source && (!goesThroughRows || readsRows)) return []
  if (source && !goesThroughRows)
    throw new ValidationError(
      'This automation has no "for each row" block, so it takes no rows of data: add one, or start it without rows.',
    )
  const rows = source ? await rowsOf(tx, workspaceId, source) : await kept()
  if (!rows || (!source && rows.length === 0))
    throw new ValidationError(
      'This automation goes through rows of data ("for each row"): start it with rows (a CSV or Excel file, pasted rows, or an earlier run\'s extracted data), or keep rows with it.',
    )
  if (rows.length === 0)
    throw new ValidationError('The data has no rows: its first line names the columns, and each line after it is a row.')
  if (plan.dataRowLimit !== null && rows.length > plan.dataRowLimit)
    throw new LimitReached(
      `The ${plan.name} plan takes up to ${plan.dataRowLimit.toLocaleString('en')} rows of data per run; this data has ${rows.length.toLocaleString('en')}. Split it, or upgrade.`,
      'PLAN_LIMIT',
    )
  return rows
}
