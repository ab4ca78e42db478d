import { and, eq, isNull } from 'drizzle-orm'
import { sealForDevice, vaultSealContext } from '#common/device-seal.ts'
import { Conflict, Forbidden, NotFound } from '#common/errors.ts'
import { isUuid } from '#common/ids.ts'
import { isVaultPlaceholder, placeholdersOf } from '#common/step-placeholders.ts'
import type { DeviceVaultAnswer } from '#common/device-vault.ts'
import { hasRole } from '#common/workspaces.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { automationRuns, devices, users } from '#server/db/schema/index.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import { runSecrets } from '#common/run-secrets.ts'
import type { VaultService } from './vault.service.ts'

/**
 * Vault values on a member's own device (docs/decisions/048): a device receives the values a run
 * of its own types, each sealed to the key it made when it was paired, only when its member
 * allowed it in Settings -> Devices and administers the workspace (whoever holds the device can
 * read what it receives). Every sending is in the workspace's activity.
 */
export function createDeviceVault(deps: {
  db: Db
  vault: Pick<VaultService, 'valuesFor' | 'roleOf'>
  audit: Pick<AuditService, 'record'>
}) {
  const { db, vault, audit } = deps

  /** The device with its member's e-mail address, if it is still connected. */
  async function connected(tx: DbOrTx, deviceId: string) {
    const [device] = await tx
      .select({ device: devices, email: users.email })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .where(and(eq(devices.id, deviceId), isNull(devices.revokedAt)))
    return device ?? null
  }

  /** Why this device may not receive vault values (what to do, in words), or null when it may. */
  async function refusalOf(tx: DbOrTx, device: typeof devices.$inferSelect | undefined): Promise<string | null> {
    if (!device) return 'This device is no longer connected.'
    if (!device.publicKey)
      return `“${device.name}” was connected before devices kept a key for vault values: disconnect it, connect it again and allow vault values for it in Settings -> Devices, or run this automation in the cloud.`
    if (!device.vaultValuesAllowedAt)
      return `Vault values do not reach “${device.name}” until you allow them for it in Settings -> Devices; or run this automation in the cloud.`
    const role = await vault.roleOf(device.workspaceId, device.userId, tx)
    if (!role || !hasRole(role, 'admin'))
      return `Vault values reach only the devices of this workspace’s admins and owner (a device can read what it receives), and “${device.name}” is not one: run this automation in the cloud.`
    return null
  }

  return {
    whyNot: async (tx: DbOrTx, deviceId: string) => refusalOf(tx, (await connected(tx, deviceId))?.device),

    /**
     * The values a client run's steps name, sealed to the device that runs it. The run must be
     * this device's (started on it, or queued for it and taken up) and running.
     */
    async sealedFor(device: { deviceId: string; userId: string; workspaceId: string }, runId: string): Promise<DeviceVaultAnswer> {
      if (!isUuid(runId)) throw new NotFound('Run not found')
      const [run] = await db
        .select()
        .from(automationRuns)
        .where(and(eq(automationRuns.id, runId), eq(automationRuns.workspaceId, device.workspaceId)))
      if (!run || run.runner !== 'client' || run.deviceId !== device.deviceId) throw new NotFound('Run not found')
      if (run.status !== 'running') throw new Conflict('This run is not running, so its vault values are not sent.')
      const named = [
        ...new Set(
          placeholdersOf(run.steps)
            .filter(isVaultPlaceholder)
            .map((placeholder) => placeholder.name),
        ),
      ]
      if (named.length === 0) return { refusal: null, secrets: [], steps: run.steps }
      const owned = await connected(db, device.deviceId)
      const refused = await refusalOf(db, owned?.device)
      if (refused) throw new Forbidden(refused)
      const publicKey = owned?.device.publicKey
      if (!owned || !publicKey) throw new Forbidden('This device holds no key for vault values.')
      const values = await vault.valuesFor(run.workspaceId, named)
      const { refusal } = await runSecrets(
        { valuesFor: () => Promise.resolve(values) },
        { workspaceId: run.workspaceId, steps: run.steps, starterRole: await vault.roleOf(run.workspaceId, run.userId) },
      )
      if (refusal) return { refusal, secrets: [], steps: run.steps }
      const secrets: DeviceVaultAnswer['secrets'] = []
      for (const [name, secret] of values) {
        secrets.push({
          name,
          kind: secret.kind,
          origins: [...secret.origins],
          useRole: secret.useRole,
          originsFromStepsAt: secret.originsFromStepsAt?.toISOString() ?? null,
          sealed: await sealForDevice(publicKey, secret.value, vaultSealContext({ runId: run.id, deviceId: device.deviceId, name })),
        })
      }
      await audit.record(
        db,
        { id: device.userId, email: owned.email },
        {
          workspaceId: run.workspaceId,
          action: 'vault.device_send',
          targetType: 'device',
          targetId: device.deviceId,
          summary: `Sent ${secrets.map((secret) => secret.name).join(', ')} to “${owned.device.name}”, sealed to its key, for run ${run.id}`,
        },
      )
      return { refusal: null, secrets, steps: run.steps }
    },
  }
}

export type DeviceVault = ReturnType<typeof createDeviceVault>
