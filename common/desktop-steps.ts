import { TABLE_FORMATS } from './file-steps.ts'
import { onError, text } from './step-fields.ts'
import { z } from './zod.ts'

// Steps on the member's own machine (issue 29, docs/decisions/046): the local runner reads and
// writes files, moves and copies them, and opens them, inside the folders the member allowed when
// pairing it (`aether-runner allow <folder>`). The cloud refuses them, naming the runner.

/** A path on the member's machine: absolute, or relative to the first allowed folder; placeholders allowed. */
const filePath = () => text().trim().min(1, 'is required').max(1000, 'must be at most 1000 characters')

export const DATA_SOURCES = ['table', 'listing'] as const
/**
 * Makes a file the run's data rows, for the "for each row" blocks after it: a CSV file (`table`),
 * or a folder's listing (`listing`: a row per file with name, path, size and modified).
 */
export const readDataStep = z.object({
  type: z.literal('readData'),
  ...onError,
  path: filePath(),
  source: z.enum(DATA_SOURCES, { error: `must be one of ${DATA_SOURCES.join(', ')}` }).default('table'),
})

/** Writes the data extracted so far to a file (CSV, JSON or XLSX); an existing file is replaced only with `replace`. */
export const writeDataStep = z.object({
  type: z.literal('writeData'),
  ...onError,
  path: filePath(),
  format: z.enum(TABLE_FORMATS, { error: `must be one of ${TABLE_FORMATS.join(', ')}` }).default('csv'),
  replace: z.boolean({ error: 'must be true or false' }).optional(),
})

/** Moves (or renames) a file; the target must not exist yet. */
export const moveFileStep = z.object({ type: z.literal('moveFile'), ...onError, from: filePath(), to: filePath() })
/** Copies a file; the target must not exist yet. */
export const copyFileStep = z.object({ type: z.literal('copyFile'), ...onError, from: filePath(), to: filePath() })
/** Opens a file (or a folder) with the system's default app for it. */
export const openFileStep = z.object({ type: z.literal('openFile'), ...onError, path: filePath() })

/** The steps only the local runner performs. */
export const DESKTOP_STEP_TYPES: ReadonlySet<string> = new Set(['readData', 'writeData', 'moveFile', 'copyFile', 'openFile'])
