import { z } from '@hono/zod-openapi'
import { automationStepSchema } from '#common/automation-steps.ts'
import { RUN_STATUSES, RUN_TRIGGERS, signInBlockSchema } from '#common/automations.ts'
import { stepsWithInputs } from '#common/run-inputs.ts'
import { TRACE_MODES, traceViewerUrl } from '#common/run-trace.ts'
import { ROW_STATUSES } from '#common/workflow-interpreter.ts'
import { targetAlternativeSchema, targetSchema } from '#common/targets.ts'
import type { Run } from './run.service.ts'

export const runDtoSchema = z
  .object({
    id: z.string(),
    automationId: z.string().nullable(),
    automationName: z.string(),
    /** The workspace it ran in, and who started it (null: a schedule whose creator has gone). */
    workspaceId: z.string(),
    userId: z.string().nullable(),
    status: z.enum(RUN_STATUSES),
    trigger: z.enum(RUN_TRIGGERS),
    runner: z.enum(['cloud', 'client']),
    steps: z.array(automationStepSchema).openapi({
      description:
        'The steps the run performs, with its inputs filled in (in one pass: a value is never read for placeholders); vault placeholders stay as written, and only the cloud worker fills them (docs/decisions/039)',
    }),
    inputs: z.record(z.string(), z.string()).openapi({ description: "The values given for the steps' {{input.name}} placeholders" }),
    actionsPerformed: z.number().int(),
    creditsCharged: z.number().int(),
    refunded: z.boolean(),
    log: z.array(z.object({ at: z.string(), level: z.enum(['info', 'warn', 'error']), message: z.string() })),
    extracted: z.array(z.record(z.string(), z.string().nullable())),
    dataRows: z.array(z.record(z.string(), z.string())).openapi({
      description: 'The table a "for each row" block goes through, a row at a time (docs/decisions/046); empty when the run has none',
    }),
    rowOutcomes: z
      .array(z.object({ row: z.number().int(), status: z.enum(ROW_STATUSES), error: z.string().optional() }))
      .openapi({ description: "Each data row's outcome: done, failed (with the reason), skipped, or not run (the run ended before it)" }),
    screenshots: z.array(z.object({ name: z.string(), step: z.number().int(), url: z.string() })),
    files: z
      .array(z.object({ name: z.string(), size: z.number().int(), step: z.number().int(), url: z.string() }))
      .openapi({ description: 'Files the run kept (downloads, saved tables), each offered as a download (never shown inline)' }),
    timeline: z
      .array(
        z.object({
          step: z.number().int(),
          round: z.string().nullable().openapi({ description: 'The data row or list item it ran for inside a loop ("row 2"), or null' }),
          words: z.string().openapi({ description: 'What the step did, in words (inputs filled in, vault placeholders as written)' }),
          target: z.string().nullable().openapi({ description: 'The way of its target that found the element, in words' }),
          repaired: z.enum(['alternative', 'similar', 'model']).nullable(),
          startedAt: z.string(),
          ms: z.number().int(),
          outcome: z.enum(['done', 'skipped', 'failed']),
          error: z.string().nullable(),
          screenshotUrl: z
            .string()
            .nullable()
            .openapi({ description: 'A small picture (JPEG) of the page after the step, or at its failure' }),
          extracted: z
            .object({ fields: z.array(z.string()), rows: z.array(z.record(z.string(), z.string().nullable())), total: z.number().int() })
            .nullable(),
        }),
      )
      .openapi({ description: 'Every step as the run carried it out, in order (docs/decisions/057)' }),
    waiting: z
      .object({
        message: z.string(),
        step: z.number().int(),
        since: z.string(),
        until: z.string().openapi({ description: 'When the run fails if nobody presses Continue' }),
      })
      .nullable()
      .openapi({
        description: 'A cloud run waiting for a person (docs/decisions/059): act in its live view, then POST /runs/{id}/continue',
      }),
    traceMode: z.enum(TRACE_MODES).openapi({ description: "The automation's trace setting when the run started (docs/decisions/060)" }),
    trace: z
      .object({
        bytes: z.number().int().nullable().openapi({ description: "The trace's size; null when it was not kept" }),
        url: z.string().nullable().openapi({ description: 'The trace (a Playwright trace, ZIP) to download' }),
        viewerUrl: z.string().nullable().openapi({ description: 'The trace opened in the trace viewer we serve' }),
        missing: z.string().nullable().openapi({ description: 'Why a trace the run should have kept was not' }),
      })
      .nullable()
      .openapi({ description: "The run's Playwright trace; null when none was kept or asked for (or it went with the run's files)" }),
    filesRemovedAt: z
      .string()
      .nullable()
      .openapi({ description: "When the run's screenshots and files were removed after its plan's retention; null while they are kept" }),
    resumedFrom: z.string().nullable().openapi({ description: 'The failed run this one continues (docs/decisions/046), or null' }),
    startStep: z.number().int().openapi({ description: 'The step the run starts at: 1, or where a resumed run continues' }),
    resumeUrl: z.string().nullable().openapi({ description: 'The page a resumed run opens before its start step' }),
    stoppedAt: z
      .object({ step: z.number().int(), url: z.string().nullable() })
      .nullable()
      .openapi({ description: 'Where a failed run stopped: the step and the page it was on (what Resume starts from)' }),
    selfRepair: z.boolean(),
    signInBlock: signInBlockSchema.nullable().openapi({
      description: 'Steps from..to sign in: a client runner skips them when the check finds the run signed in already',
    }),
    timeLimitSeconds: z.number().int().nullable().openapi({ description: "The automation's own time limit when the run started" }),
    stepLimit: z.number().int().nullable().openapi({ description: "The automation's own action limit when the run started" }),
    repairs: z
      .array(
        z.object({
          step: z.number().int(),
          failed: targetAlternativeSchema,
          used: targetAlternativeSchema,
          how: z.enum(['alternative', 'similar', 'model']),
          target: targetSchema.nullable(),
          screenshotUrl: z.string().nullable(),
          at: z.string(),
          appliedInVersion: z.number().int().nullable(),
        }),
      )
      .openapi({ description: 'Steps the run carried out with another way of finding their element than the first (self-repair)' }),
    error: z.string().nullable(),
    queuePosition: z
      .number()
      .int()
      .min(1)
      .nullable()
      .openapi({
        description:
          'While the run waits in the cloud queue: 1 + the queued cloud runs ahead of it (every workspace’s, oldest first). ' +
          'A run whose workspace already runs as many cloud runs as its plan allows waits for one of them to finish, ' +
          'and later runs of other workspaces may start first (docs/decisions/029). Null when it is not queued in the cloud.',
        example: 3,
      }),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  })
  .openapi('Run')

export type RunDto = z.infer<typeof runDtoSchema>

function traceOf(run: Run): RunDto['trace'] {
  if (!run.trace) return null
  if ('missing' in run.trace) return { bytes: null, url: null, viewerUrl: null, missing: run.trace.missing }
  return { bytes: run.trace.bytes, url: `/api/runs/${run.id}/trace`, viewerUrl: traceViewerUrl(run.id), missing: null }
}

/** `queuePosition`: the run's place in the cloud queue (RunService.queuePositions), null when it is not queued there. */
export function toRunDto(run: Run, queuePosition: number | null): RunDto {
  return {
    id: run.id,
    automationId: run.automationId,
    automationName: run.automationName,
    workspaceId: run.workspaceId,
    userId: run.userId,
    status: run.status,
    trigger: run.trigger,
    runner: run.runner,
    steps: stepsWithInputs(run.steps, run.inputs),
    inputs: run.inputs,
    actionsPerformed: run.actionsPerformed,
    creditsCharged: run.creditsCharged,
    refunded: run.refundedAt !== null,
    log: run.log,
    extracted: run.extracted,
    dataRows: run.dataRows,
    rowOutcomes: run.rowOutcomes,
    files: run.files.map((file) => ({ name: file.name, size: file.size, step: file.step, url: `/api/runs/${run.id}/files/${file.file}` })),
    timeline: run.timeline.map(({ screenshot, ...step }) => ({
      ...step,
      screenshotUrl: screenshot ? `/api/runs/${run.id}/screenshots/${screenshot}` : null,
    })),
    waiting: run.waiting,
    traceMode: run.traceMode,
    trace: traceOf(run),
    filesRemovedAt: run.filesRemovedAt?.toISOString() ?? null,
    resumedFrom: run.resumedFrom,
    startStep: run.startStep,
    resumeUrl: run.resumeUrl,
    stoppedAt: run.stoppedAt,
    screenshots: run.screenshots.map((shot) => ({ name: shot.name, step: shot.step, url: `/api/runs/${run.id}/screenshots/${shot.file}` })),
    selfRepair: run.selfRepair,
    signInBlock: run.signInBlock,
    timeLimitSeconds: run.timeLimitSeconds,
    stepLimit: run.stepLimit,
    repairs: run.repairs.map((repair) => ({
      step: repair.step,
      failed: repair.failed,
      used: repair.used,
      how: repair.how,
      target: repair.target ?? null,
      screenshotUrl: repair.file ? `/api/runs/${run.id}/screenshots/${repair.file}` : null,
      at: repair.at,
      appliedInVersion: repair.appliedInVersion ?? null,
    })),
    error: run.error,
    queuePosition,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
  }
}
