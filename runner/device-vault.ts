import type { AutomationStep } from '#common/automation-steps.ts'
import { openOnDevice, vaultSealContext } from '#common/device-seal.ts'
import { isVaultPlaceholder, placeholdersOf } from '#common/step-placeholders.ts'
import type { VaultSecretKind, VaultUseRole } from '#common/vault.ts'
import type { RunDto } from '#server/features/runs/run.dto.ts'
import { runSecrets, type RunSecrets, type SecretForRun } from '#server/features/vault/run-secrets.ts'
import type { ApiClient } from './api-client.ts'

interface DeviceVaultAnswer {
  refusal: { index: number; message: string } | null
  secrets: {
    name: string
    kind: VaultSecretKind
    origins: string[]
    useRole: VaultUseRole
    originsFromStepsAt: string | null
    sealed: string
  }[]
  steps: AutomationStep[]
}

/** Whether the run's steps type a vault value: then the runner asks for them, sealed to its key. */
export const namesVaultValues = (steps: readonly AutomationStep[]) => placeholdersOf(steps).some(isVaultPlaceholder)

/**
 * The vault values a run on this runner types (docs/decisions/048): asked for once as it starts,
 * each sealed by the server to this runner's key for this run, opened here and held in memory
 * only; filled, checked against their sites and hidden in everything the run reports exactly as
 * a cloud run's (run-secrets.ts), with the steps as written and the run's inputs in one pass.
 */
export async function deviceVaultFor(
  api: ApiClient,
  run: Pick<RunDto, 'id' | 'workspaceId'>,
  device: { id: string; privateKey: JsonWebKey | undefined },
): Promise<{ steps: AutomationStep[]; secrets: RunSecrets }> {
  if (!device.privateKey)
    throw new Error('This runner was paired before runners kept a key for vault values: `forget` it and `pair` again.')
  const answer = await api.post<DeviceVaultAnswer>(`/api/runs/${run.id}/vault`)
  const values = new Map<string, SecretForRun>()
  for (const secret of answer.secrets) {
    const value = await openOnDevice(
      device.privateKey,
      secret.sealed,
      vaultSealContext({ runId: run.id, deviceId: device.id, name: secret.name }),
    )
    values.set(secret.name, {
      kind: secret.kind,
      value,
      origins: secret.origins,
      useRole: secret.useRole,
      originsFromStepsAt: secret.originsFromStepsAt ? new Date(secret.originsFromStepsAt) : null,
    })
  }
  // The server checked the starter's role against each secret: it answers a refusal, or values they may use.
  const secrets = await runSecrets(
    { valuesFor: () => Promise.resolve(values) },
    { workspaceId: run.workspaceId, steps: answer.steps, starterRole: 'owner' },
  )
  return { steps: answer.steps, secrets: answer.refusal ? { ...secrets, refusal: answer.refusal } : secrets }
}
