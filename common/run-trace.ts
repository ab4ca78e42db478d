import { z } from './zod.ts'

/** When a cloud run keeps a Playwright trace (docs/decisions/060): never, when it fails, or every time. */
export const TRACE_MODES = ['off', 'onFailure', 'always'] as const
export type TraceMode = (typeof TRACE_MODES)[number]

export const TRACE_MODE_WORDS: Record<TraceMode, string> = {
  off: 'Off',
  onFailure: 'When a run fails',
  always: 'Every run',
}

export const traceModeSchema = z.enum(TRACE_MODES, { error: `trace must be one of ${TRACE_MODES.join(', ')}` })

/** What became of a run's trace: kept (its size on disk), or not kept and why; null: none was asked for. */
export type RunTrace = { bytes: number } | { missing: string }

/** A trace that would not fit in what is left of the run's files (MAX_RUN_STORED_BYTES). */
export const TRACE_TOO_LARGE = 'The trace was not kept: it was larger than the room left for this run’s files.'
/** A trace Playwright could not write (the browser stopped, say). */
export const TRACE_NOT_WRITTEN = 'The trace was not kept: the browser could not write it.'

/** Where the trace viewer that ships with Playwright is served (docs/decisions/060). */
export const TRACE_VIEWER_PATH = '/trace-viewer/'

/** The trace viewer opening a run's trace: it fetches the trace itself, with the member's cookie. */
export const traceViewerUrl = (runId: string) => `${TRACE_VIEWER_PATH}index.html?trace=${encodeURIComponent(`/api/runs/${runId}/trace`)}`
