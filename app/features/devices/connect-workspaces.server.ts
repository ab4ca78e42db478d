import { lacksRequiredTwoFactor } from '#common/two-factor-requirement.ts'
import { hasRole } from '#common/workspaces.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { Services } from '#server/services.ts'

/** A workspace the member may connect a device to, with how many devices it holds. */
export interface ConnectableWorkspace {
  id: string
  name: string
  /** '1 of 3 devices', 'no device limit'. */
  devicesLabel: string
  /** Its plan's devices are all in use: connecting another is refused until one is disconnected. */
  full: boolean
}

/**
 * The member's workspaces where they may connect a device (docs/decisions/031): member or above,
 * and not a team that requires two-factor sign-in they have not turned on. The service checks the
 * same when the device is approved.
 */
export async function connectableWorkspaces(
  services: Pick<Services, 'workspaces' | 'pairings'>,
  user: SessionUser,
): Promise<ConnectableWorkspace[]> {
  const mine = user.profileUnavailable ? [] : await services.workspaces.listFor(user.id)
  const usable = mine.filter(
    (workspace) => hasRole(workspace.role, 'member') && !lacksRequiredTwoFactor({ twoFactorEnabled: user.twoFactorEnabled, workspace }),
  )
  return Promise.all(
    usable.map(async (workspace) => {
      const { taken, limit } = await services.pairings.usage(workspace.id)
      const devicesLabel = limit === null ? `${taken} connected, no device limit` : `${taken} of ${limit} device${limit === 1 ? '' : 's'}`
      return { id: workspace.id, name: workspace.name, devicesLabel, full: limit !== null && taken >= limit }
    }),
  )
}
