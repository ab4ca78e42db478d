import { automationStepSchema } from '#common/automation-steps.ts'
import type { DeviceVaultAnswer } from '#common/device-vault.ts'
import type { RunStep } from '#common/run-steps.ts'
import { VAULT_SECRET_KINDS, VAULT_USE_ROLES } from '#common/vault.ts'
import { z } from '#common/zod.ts'
import type { Connection } from '../storage/stored-items.ts'
import { ApiError, callApi, DeviceDisconnectedError, noteRateLimit } from './api-client.ts'

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
  const { data } = await callApi(connection, `/api/automations/${encodeURIComponent(automationId)}/runs`, z.object({ data: runSchema }), {
    method: 'POST',
    body: inputs && Object.keys(inputs).length ? { where, inputs } : { where },
  })
  return data.data
}

const ok = z.object({ data: z.unknown() })

const vaultAnswerSchema = z.object({
  data: z.object({
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
  }),
})

/** The vault values a run in this browser types, sealed to this browser's key (docs/decisions/048). */
export async function fetchRunVault(connection: Connection, runId: string): Promise<DeviceVaultAnswer> {
  const { data } = await callApi(connection, `/api/runs/${encodeURIComponent(runId)}/vault`, vaultAnswerSchema, { method: 'POST' })
  return data.data
}

export interface RunReport {
  actionsPerformed: number
  log: { level: 'info' | 'warn' | 'error'; message: string }[]
  extracted?: Record<string, string | null>[]
  /** The steps carried out, for the run's timeline (docs/decisions/057). */
  steps?: RunStep[]
}

export async function reportProgress(connection: Connection, runId: string, report: RunReport): Promise<void> {
  await callApi(connection, `/api/runs/${encodeURIComponent(runId)}/progress`, ok, { method: 'POST', body: report })
}

export async function reportFinish(
  connection: Connection,
  runId: string,
  report: RunReport & { status: 'succeeded' | 'failed' | 'cancelled'; error?: string },
): Promise<void> {
  await callApi(connection, `/api/runs/${encodeURIComponent(runId)}/finish`, ok, { method: 'POST', body: report })
}

/** Sends a screenshot the run took (a PNG) as the run's, after step `step`. */
export async function uploadScreenshot(connection: Connection, runId: string, step: number, name: string, png: Blob): Promise<void> {
  await uploadImage(connection, runId, new URLSearchParams({ step: String(step), name }), png)
}

/**
 * Sends the picture of the page after step `step` (a JPEG, the run's `shot`-th) for the run's
 * timeline (docs/decisions/057); answers its name in the run, which the step's entry names.
 */
export async function uploadStepPicture(connection: Connection, runId: string, step: number, shot: number, jpeg: Blob): Promise<string> {
  const answer = await uploadImage(connection, runId, new URLSearchParams({ step: String(step), shot: String(shot) }), jpeg)
  const file = (answer as { data?: { file?: unknown } } | null)?.data?.file
  if (typeof file !== 'string') throw new ApiError(0, undefined, 'The server did not name the picture.')
  return file
}

async function uploadImage(connection: Connection, runId: string, query: URLSearchParams, image: Blob): Promise<unknown> {
  const response = await fetch(`${connection.serverUrl}/api/runs/${encodeURIComponent(runId)}/screenshots?${query}`, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'content-type': image.type, authorization: `Bearer ${connection.token}`, accept: 'application/json' },
    body: image,
  }).catch(() => null)
  if (!response) throw new ApiError(0, undefined, `Could not reach the Aether server at ${connection.serverUrl}.`)
  noteRateLimit(response)
  if (response.ok) return response.json().catch(() => null)
  const { message } = ((await response.json().catch(() => null)) ?? {}) as { message?: unknown }
  const text = typeof message === 'string' ? message : `The server answered ${response.status}.`
  if (response.status === 401) throw new DeviceDisconnectedError(401, undefined, text)
  throw new ApiError(response.status, undefined, text)
}

/** Where the member opens a run on the website (its live page in Run History). */
export const runPageUrl = (connection: Connection, runId: string) => `${connection.serverUrl}/dashboard/runs/${encodeURIComponent(runId)}`
