import { z } from './zod.ts'

/**
 * One step as a run carried it out: the run page's timeline (docs/decisions/057). Words are the
 * log's: inputs filled in, vault placeholders as written, never a value.
 */
export interface RunStep {
  /** The step's number in the run's steps. */
  step: number
  /** The data row or list item it ran for inside a loop ("row 2", "item 3"); null outside one. */
  round: string | null
  /** What it did, in words. */
  words: string
  /** The way of its target that found the element, in words; null for a step without a target. */
  target: string | null
  /** How self-repair found the element when the target's first way did not; null when it did. */
  repaired: 'alternative' | 'similar' | 'model' | null
  startedAt: string
  ms: number
  outcome: 'done' | 'skipped' | 'failed'
  /** Why it failed (a step whose "on error" goes on fails too, and the run goes on). */
  error: string | null
  /** The small screenshot taken after the step (or at its failure), a file of the run's; null when none was. */
  screenshot: string | null
  /** What the step extracted: its fields, the first rows of its values, and how many rows in all. */
  extracted: { fields: string[]; rows: Record<string, string | null>[]; total: number } | null
}

/** The most steps one run's timeline records (a loop's later rounds are then only logged). */
export const MAX_RUN_STEPS = 1000
/** Rows of a step's extracted values the timeline keeps (the run's table has them all). */
export const STEP_EXTRACTED_ROWS = 3
/**
 * What one run may store in all (screenshots, step pictures and kept files). Past it, step
 * pictures stop and a file step fails saying so.
 */
export const MAX_RUN_STORED_BYTES = 250 * 1024 * 1024
/** Why a step that would store more fails (a step's error: lower case, no full stop). */
export const RUN_FILES_FULL = `the run's files reached their limit of ${MAX_RUN_STORED_BYTES / 1024 / 1024} MB`
/** Step pictures stop once the run's files take this much, leaving the rest for screenshots and kept files. */
export const MAX_STEP_PICTURE_BYTES = 100 * 1024 * 1024
/** A step's picture: a JPEG of the viewport at this quality, small enough to take after every step. */
export const STEP_SHOT_QUALITY = 50
/** The name a step's picture is stored under: its counter in the run. */
export const stepShotName = (shot: number) => `after-${shot}.jpg`
export const STEP_SHOT_NAME = /^after-\d{1,5}\.jpg$/

const text = (max: number) => z.string().max(max)

/** A step record as a client (the local runner, the extension) reports it. */
export const runStepSchema = z.object({
  step: z.number().int().min(1).max(9999),
  round: text(40).nullable().default(null),
  words: text(2000),
  target: text(500).nullable().default(null),
  repaired: z.enum(['alternative', 'similar', 'model']).nullable().default(null),
  startedAt: z.iso.datetime({ error: 'startedAt must be an ISO date and time' }),
  ms: z.number().int().min(0).max(86_400_000),
  outcome: z.enum(['done', 'skipped', 'failed']),
  error: text(2000).nullable().default(null),
  screenshot: z.string().regex(STEP_SHOT_NAME, 'screenshot must name a step picture (after-<n>.jpg)').nullable().default(null),
  extracted: z
    .object({
      fields: z.array(text(64)).max(50),
      rows: z.array(z.record(text(64), text(2000).nullable())).max(STEP_EXTRACTED_ROWS),
      total: z.number().int().min(0).max(1_000_000),
    })
    .nullable()
    .default(null),
}) satisfies z.ZodType<RunStep, unknown>

/** How long a step took, in words for the timeline ("0.4 s", "12 s", "2 min 5 s"). */
export function durationInWords(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}
