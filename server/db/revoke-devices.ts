import { and, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm'
import type { DbOrTx } from './client.ts'
import { automations, devices } from './schema/index.ts'

/**
 * Revokes the devices `which` picks (not revoked yet): their tokens are refused from the next
 * request on, and their places are free. The schedules of automations set to run on one of them
 * are paused where they stand, never moved to the cloud: the member chooses another runner or the
 * cloud (docs/decisions/032, amended). Answers the devices revoked.
 */
export async function revokeDevices(tx: DbOrTx, which: SQL | undefined): Promise<{ id: string; name: string }[]> {
  const revoked = await tx
    .update(devices)
    .set({ revokedAt: new Date() })
    .where(and(which, isNull(devices.revokedAt)))
    .returning({ id: devices.id, name: devices.name })
  if (revoked.length > 0) {
    await tx
      .update(automations)
      .set({ enabled: false, updatedAt: new Date() })
      .where(
        and(
          inArray(
            automations.deviceId,
            revoked.map((device) => device.id),
          ),
          isNotNull(automations.schedule),
        ),
      )
  }
  return revoked
}
