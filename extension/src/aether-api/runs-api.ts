import { automationStepSchema } from '#common/automation-steps.ts'
import type { DeviceVaultAnswer } from '#common/device-vault.ts'
import type { RunStep } from '#common/run-steps.ts'
import { VAULT_SECRET_KINDS, VAULT_USE_ROLES } from '#common/vault.ts'
import { z } from '#common/zod.ts'
import type { Connection } from '../storage/stored-items.ts'
import { dataOf } from '#sdk'
import { answerOf, ApiError, clientOf } from './api-client.ts'

const runSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  status: z.string(),
  steps: z.array(automationStepSchema),
  inputs: z.record(z.string(), z.string()),
  timeLimitSeconds: z.number().nullable(),
  stepLimit: z.number().nullable(),
})
export type StartedRun = z.infer<typeof runSchema>

/**
 * Starts a run of the automation: in this browser (where: client, the server records the trigger
 * 'extension' and answers the steps with their inputs filled) or in the cloud. The server refuses
 * a run here whose steps name vault secrets unless the member allowed this browser vault values
 * (docs/decisions/048), with a message to show.
 */
export async function startRun(
  connection: Connection,
  automationId: string,
  where: 'client' | 'cloud',
  inputs?: Record<string, string>,
): Promise<StartedRun> {
  const run = await dataOf(
    clientOf(connection).POST('/automations/{id}/runs', {
      params: { path: { id: automationId } },
      body: inputs && Object.keys(inputs).length ? { where, inputs } : { where },
    }),
  )
  return answerOf(runSchema, run)
}

const vaultAnswerSchema = z.object({
  refusal: z.object({ index: z.number(), message: z.string() }).nullable(),
  secrets: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(VAULT_SECRET_KINDS),
      origins: z.array(z.string()),
      useRole: z.enum(VAULT_USE_ROLES),
      originsFromStepsAt: z.string().nullable(),
      sealed: z.string(),
    }),
  ),
  steps: z.array(automationStepSchema),
})

/** The vault values a run in this browser types, sealed to this browser's key (docs/decisions/048). */
export async function fetchRunVault(connection: Connection, runId: string): Promise<DeviceVaultAnswer> {
  const answer = await dataOf(clientOf(connection).POST('/runs/{id}/vault', { params: { path: { id: runId } } }))
  return answerOf(vaultAnswerSchema, answer)
}

export interface RunReport {
  actionsPerformed: number
  log: { level: 'info' | 'warn' | 'error'; message: string }[]
  extracted?: Record<string, string | null>[]
  /** The steps carried out, for the run's timeline (docs/decisions/057). */
  steps?: RunStep[]
}

export async function reportProgress(connection: Connection, runId: string, report: RunReport): Promise<void> {
  await dataOf(clientOf(connection).POST('/runs/{id}/progress', { params: { path: { id: runId } }, body: report }))
}

export async function reportFinish(
  connection: Connection,
  runId: string,
  report: RunReport & { status: 'succeeded' | 'failed' | 'cancelled'; error?: string },
): Promise<void> {
  await dataOf(clientOf(connection).POST('/runs/{id}/finish', { params: { path: { id: runId } }, body: report }))
}

/** Sends a screenshot the run took (a PNG) as the run's, after step `step`. */
export async function uploadScreenshot(connection: Connection, runId: string, step: number, name: string, png: Blob): Promise<void> {
  await uploadImage(connection, runId, { step, name }, png)
}

/**
 * Sends the picture of the page after step `step` (a JPEG, the run's `shot`-th) for the run's
 * timeline (docs/decisions/057); answers its name in the run, which the step's entry names.
 */
export async function uploadStepPicture(connection: Connection, runId: string, step: number, shot: number, jpeg: Blob): Promise<string> {
  const file = (await uploadImage(connection, runId, { step, shot }, jpeg))?.file
  if (typeof file !== 'string') throw new ApiError(200, 'UNEXPECTED_ANSWER', 'The server did not name the picture.')
  return file
}

function uploadImage(connection: Connection, runId: string, query: { step: number; name?: string; shot?: number }, image: Blob) {
  return dataOf(
    clientOf(connection).POST('/runs/{id}/screenshots', {
      params: { path: { id: runId }, query },
      body: image,
      headers: { 'content-type': image.type },
    }),
  )
}

/** Where the member opens a run on the website (its live page in Run History). */
export const runPageUrl = (connection: Connection, runId: string) => `${connection.serverUrl}/dashboard/runs/${encodeURIComponent(runId)}`
