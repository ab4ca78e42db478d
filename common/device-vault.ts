import type { AutomationStep } from './automation-steps.ts'
import { openOnDevice, vaultSealContext } from './device-seal.ts'
import { runSecrets, type RunSecrets, type SecretForRun } from './run-secrets.ts'
import { isVaultPlaceholder, placeholdersOf } from './step-placeholders.ts'
import type { VaultSecretKind, VaultUseRole } from './vault.ts'

/** What POST /api/runs/{id}/vault answers a device (server/features/vault/device-vault.ts). */
export interface DeviceVaultAnswer {
  refusal: { index: number; message: string } | null
  secrets: {
    name: string
    kind: VaultSecretKind
    origins: string[]
    useRole: VaultUseRole
    originsFromStepsAt: string | null
    sealed: string
  }[]
  /** The run's steps as written: filled with the run's inputs and the values in one pass. */
  steps: AutomationStep[]
}

/**
 * Whether the run's steps, as the device received them (inputs filled in), may type a vault value:
 * then the device asks for the values and the steps as written (an input that reads like a
 * placeholder makes this true, and the server's answer then names no value).
 */
export const namesVaultValues = (steps: readonly AutomationStep[]) => placeholdersOf(steps).some(isVaultPlaceholder)

/**
 * The vault values a run on this device types (docs/decisions/048), opened with the device's
 * private key and held in memory only: filled, checked against their sites and hidden in
 * everything the run reports exactly as a cloud run's (run-secrets.ts). The local runner and the
 * extension both read the server's answer here.
 */
export async function openDeviceVault(
  answer: DeviceVaultAnswer,
  run: { id: string; workspaceId: string },
  device: { id: string; privateKey: JsonWebKey | undefined; noKey: string },
): Promise<{ steps: AutomationStep[]; secrets: RunSecrets }> {
  const values = new Map<string, SecretForRun>()
  const { privateKey } = device
  if (answer.secrets.length > 0 && !privateKey) throw new Error(device.noKey)
  for (const secret of answer.secrets) {
    if (!privateKey) break
    const context = vaultSealContext({ runId: run.id, deviceId: device.id, name: secret.name })
    values.set(secret.name, {
      kind: secret.kind,
      value: await openOnDevice(privateKey, secret.sealed, context),
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
