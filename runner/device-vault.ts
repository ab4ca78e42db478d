import type { AutomationStep } from '#common/automation-steps.ts'
import { openDeviceVault } from '#common/device-vault.ts'
import type { RunSecrets } from '#common/run-secrets.ts'
import type { RunDto } from '#server/features/runs/run.dto.ts'
import { dataOf, type AetherClient } from '#sdk'

/**
 * The vault values a run on this runner types (docs/decisions/048): asked for once as it starts,
 * each sealed by the server to this runner's key for this run, opened here and held in memory only.
 */
export async function deviceVaultFor(
  api: AetherClient,
  run: Pick<RunDto, 'id' | 'workspaceId'>,
  device: { id: string; privateKey: JsonWebKey | undefined },
): Promise<{ steps: AutomationStep[]; secrets: RunSecrets }> {
  return openDeviceVault(await dataOf(api.POST('/runs/{id}/vault', { params: { path: { id: run.id } } })), run, {
    ...device,
    noKey: 'This runner was paired before runners kept a key for vault values: `forget` it and `pair` again.',
  })
}
