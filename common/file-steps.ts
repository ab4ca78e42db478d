import { onError, text } from './step-fields.ts'
import { targetSchema } from './targets.ts'
import { z } from './zod.ts'

// Files in a workflow (issue 29, docs/decisions/046): a download kept with the run's files, a file
// of the run typed into a file input, and the extracted table written as a file of the run.

/** The most bytes one file of a run may hold, and the most files one run keeps. */
export const MAX_RUN_FILE_BYTES = 25 * 1024 * 1024
export const MAX_RUN_FILES = 20

/** What a file name may not hold: folders, control characters, quotes (it goes into a download's header). */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
export const UNSAFE_FILE_NAME_CHARACTERS = /[\\/"\u0000-\u001f\u007f]/g

/** The most bytes one file kept with an automation may hold, and the most files one automation keeps. */
export const MAX_AUTOMATION_FILE_BYTES = 5 * 1024 * 1024
export const MAX_AUTOMATION_FILES = 10

/** A file's name as the member gives it: no folders, no control characters, at most 100 characters. */
export const fileName = () =>
  text()
    .trim()
    .min(1, 'is required')
    .max(100, 'must be at most 100 characters')
    .refine(
      (name) => name.match(UNSAFE_FILE_NAME_CHARACTERS) === null && name !== '.' && name !== '..',
      'must be a file name, without folders or quotes',
    )

/**
 * Keeps a file the page downloads: by clicking `target` (a link or button that downloads), or by
 * opening `url`; kept under `name` (the name the site gives it when unset). Never shown in the
 * browser: the run page offers it as a download.
 */
export const downloadStep = z
  .object({
    type: z.literal('download'),
    ...onError,
    target: targetSchema.optional(),
    url: text()
      .trim()
      .max(2000, 'must be at most 2000 characters')
      .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), 'must be an http or https address')
      .optional(),
    name: fileName().optional(),
  })
  .refine((step) => (step.target === undefined) !== (step.url === undefined), {
    message: 'needs either an element to click or a url, not both',
  })

/**
 * Chooses a file in a file input, by its name: a file the run kept (a download, a saved table),
 * or else one kept with the automation. The name may come from the row (`{{row.file}}`).
 */
export const uploadStep = z.object({
  type: z.literal('upload'),
  ...onError,
  target: targetSchema,
  file: text().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
})

/** The files a table is written as: CSV, JSON, or an Excel workbook. */
export const TABLE_FORMATS = ['csv', 'json', 'xlsx'] as const
/** Writes the data extracted so far as a file of the run (CSV, JSON or XLSX), under `name`. */
export const saveTableStep = z.object({
  type: z.literal('saveTable'),
  ...onError,
  format: z.enum(TABLE_FORMATS, { error: `must be one of ${TABLE_FORMATS.join(', ')}` }),
  name: fileName(),
})
