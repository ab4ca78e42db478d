import { connectsDevices } from '#common/devices.ts'
import { and, count, eq, gt, isNull } from 'drizzle-orm'
import { LimitReached } from '#common/errors.ts'
import type { DbOrTx, Tx } from '#server/db/client.ts'
import { devicePairings, devices } from '#server/db/schema/index.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'

/**
 * A workspace's device places (docs/decisions/031; part of the pairing service): its connected
 * devices and the approved pairings not yet collected each hold one, up to its plan's number.
 */
export function createDevicePlaces(plans: Pick<PlanService, 'allowancesOf' | 'cheapestWithMoreDevices'>) {
  /** The workspace's devices and approved pairings not yet collected: each holds one of its places. */
  async function placesTakenIn(tx: DbOrTx, workspaceId: string): Promise<number> {
    const [connected] = await tx
      .select({ n: count() })
      .from(devices)
      .where(and(eq(devices.workspaceId, workspaceId), isNull(devices.revokedAt)))
    const [waiting] = await tx
      .select({ n: count() })
      .from(devicePairings)
      .where(
        and(eq(devicePairings.workspaceId, workspaceId), eq(devicePairings.status, 'approved'), gt(devicePairings.expiresAt, new Date())),
      )
    return (connected?.n ?? 0) + (waiting?.n ?? 0)
  }

  /** Refuses a new device when the workspace's plan has no place left, naming the cheapest plan with more. */
  async function requireDevicePlace(tx: Tx, workspaceId: string): Promise<void> {
    const allowances = await plans.allowancesOf(workspaceId, tx)
    const limit = allowances.devices
    if (limit === null || (await placesTakenIn(tx, workspaceId)) < limit) return
    const larger = await plans.cheapestWithMoreDevices(limit, tx)
    const connects = connectsDevices(limit)
    throw new LimitReached(
      larger
        ? `The ${allowances.plan} plan ${connects}; the ${larger.name} plan connects more. Revoke one in Settings -> Devices or upgrade.`
        : `The ${allowances.plan} plan ${connects}. Revoke one in Settings -> Devices to connect another.`,
      'PLAN_LIMIT',
    )
  }

  return { placesTakenIn, requireDevicePlace }
}
