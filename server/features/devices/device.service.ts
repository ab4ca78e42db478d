import { revokeDevices } from '#server/db/revoke-devices.ts'
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import type { ApiKeyScope } from '#common/api-keys.ts'
import type { Caller } from '#common/auth.ts'
import { connectsDevices, DEVICE_KIND_NAMES, type DeviceKind } from '#common/devices.ts'
import { Conflict, NotFound } from '#common/errors.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import { isUuid } from '#common/ids.ts'
import type { Db } from '#server/db/client.ts'
import { devicePairings, devices, subscriptionPlans, users, workspaces } from '#server/db/schema/index.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import { isDeviceTokenShaped, sha256 } from './device-secrets.ts'

/** What a member sees of a device: never its token, never the token's hash. */
export interface DeviceSummary {
  id: string
  name: string
  kind: DeviceKind
  version: string
  createdAt: Date
  lastSeenAt: Date | null
  /** It made a key pair when it was paired: vault values can be sealed to it (docs/decisions/048). */
  holdsKey: boolean
  /** Its member allowed it the vault values its runs type. */
  vaultValues: boolean
}

/** The device behind a request's token, as the session resolves it. */
export interface AuthenticatedDevice {
  deviceId: string
  userId: string
  workspaceId: string
  kind: DeviceKind
  scopes: ApiKeyScope[]
  /** Why it is past its workspace's plan (refused everywhere but its own routes), or null. */
  overPlan: string | null
}

/** lastSeenAt is a hint, not an audit log: one write per device per minute at most (a new version is written at once). */
const LAST_SEEN_RESOLUTION_MS = 60_000
const VERSION_MAX_LENGTH = 40

const summary = {
  id: devices.id,
  name: devices.name,
  kind: devices.kind,
  version: devices.version,
  createdAt: devices.createdAt,
  lastSeenAt: devices.lastSeenAt,
  holdsKey: sql<boolean>`${devices.publicKey} is not null`,
  vaultValues: sql<boolean>`${devices.vaultValuesAllowedAt} is not null`,
}

/**
 * Connected devices (docs/decisions/031): a device token acts in its workspace as its member, with
 * its scopes; its member lists, renames and revokes their devices. A revoked device is nobody at
 * its next request.
 */
export function createDeviceService(db: Db, activity: Pick<AuditService, 'record'>) {
  /** One of the caller's own devices in their current workspace, not revoked; 404 otherwise. */
  async function ownedBy(caller: Pick<Caller, 'id' | 'workspace'>, id: string) {
    if (!isUuid(id)) throw new NotFound('Device not found.')
    const [device] = await db
      .select(summary)
      .from(devices)
      .where(
        and(eq(devices.id, id), eq(devices.userId, caller.id), eq(devices.workspaceId, caller.workspace.id), isNull(devices.revokedAt)),
      )
    if (!device) throw new NotFound('Device not found.')
    return device
  }

  /**
   * The workspace's plan and its connected devices past it (a downgrade, or a plan's devices
   * lowered): the devices connected first keep the places the plan has; each later one is refused
   * (403) on all but its own routes (it may still disconnect itself), until a place is free.
   */
  async function pastPlanIn(workspaceId: string): Promise<{ plan: string; limit: number; ids: Set<string> } | null> {
    const [plan] = await db
      .select({ name: subscriptionPlans.name, limit: subscriptionPlans.devices })
      .from(workspaces)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.slug, workspaces.planSlug))
      .where(eq(workspaces.id, workspaceId))
    if (!plan || plan.limit === null) return null
    const connected = await db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.workspaceId, workspaceId), isNull(devices.revokedAt)))
      .orderBy(devices.createdAt, devices.id)
    return { plan: plan.name, limit: plan.limit, ids: new Set(connected.slice(plan.limit).map((device) => device.id)) }
  }

  return {
    /**
     * The device a token belongs to; null for a malformed, unknown or revoked one. Each use moves
     * its last-seen time (at most once a minute) and records the version the device reports.
     */
    async authenticate(token: string, clientVersion?: string | null): Promise<AuthenticatedDevice | null> {
      if (!isDeviceTokenShaped(token)) return null
      const [row] = await db
        .select()
        .from(devices)
        .where(eq(devices.tokenHash, sha256(token)))
      if (!row || row.revokedAt) return null
      const past = await pastPlanIn(row.workspaceId)
      const overPlan = past?.ids.has(row.id)
        ? `The ${past.plan} plan ${connectsDevices(past.limit)}, and “${row.name}” is over it: disconnect another device in Settings -> Devices, or upgrade, and it works again.`
        : null
      const version = clientVersion?.trim().slice(0, VERSION_MAX_LENGTH) || row.version
      const now = Date.now()
      if (version !== row.version || !row.lastSeenAt || now - row.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
        await db
          .update(devices)
          .set({ lastSeenAt: new Date(now), version })
          .where(eq(devices.id, row.id))
      }
      return { deviceId: row.id, userId: row.userId, workspaceId: row.workspaceId, kind: row.kind, scopes: row.scopes, overPlan }
    },

    /** Whether a device still works (not revoked): an open event stream asks before each delivery. */
    async isActive(deviceId: string): Promise<boolean> {
      const [row] = await db.select({ revokedAt: devices.revokedAt }).from(devices).where(eq(devices.id, deviceId))
      return Boolean(row && !row.revokedAt)
    },

    /** The workspace's connected devices past its plan: refused until a place is free. */
    pastPlanIds: async (workspaceId: string): Promise<Set<string>> => (await pastPlanIn(workspaceId))?.ids ?? new Set(),

    /** The caller's connected devices in their current workspace, most recently connected first. */
    async list(caller: Pick<Caller, 'id' | 'workspace'>): Promise<DeviceSummary[]> {
      return db
        .select(summary)
        .from(devices)
        .where(and(eq(devices.userId, caller.id), eq(devices.workspaceId, caller.workspace.id), isNull(devices.revokedAt)))
        .orderBy(desc(devices.createdAt), desc(devices.id))
    },

    /**
     * The local runners the caller may choose for an automation: their own connected runners in the
     * workspace, by name, and `current` (the one the automation already names, maybe a colleague's,
     * marked as not theirs) so the builder can show it for what it is (docs/decisions/032, amended).
     */
    async runnersFor(
      caller: Pick<Caller, 'id' | 'workspace'>,
      current: string | null = null,
    ): Promise<{ id: string; name: string; owner: string; mine: boolean; connected: boolean }[]> {
      const rows = await db
        .select({ id: devices.id, name: devices.name, owner: users.email, userId: devices.userId, revokedAt: devices.revokedAt })
        .from(devices)
        .innerJoin(users, eq(users.id, devices.userId))
        .where(
          and(
            eq(devices.workspaceId, caller.workspace.id),
            eq(devices.kind, 'runner'),
            // The one the automation names stays listed when it was disconnected: the member chooses again, knowingly.
            current && isUuid(current)
              ? or(and(eq(devices.userId, caller.id), isNull(devices.revokedAt)), eq(devices.id, current))
              : and(eq(devices.userId, caller.id), isNull(devices.revokedAt)),
          ),
        )
        .orderBy(devices.name, devices.id)
      return rows.map(({ userId, revokedAt, ...runner }) => ({ ...runner, mine: userId === caller.id, connected: revokedAt === null }))
    },

    /**
     * Of these runner ids, the ones disconnected since (revoked, or gone), with the name each had:
     * the automations set to run on one are flagged until the member chooses again.
     */
    async disconnectedRunners(workspaceId: string, ids: readonly (string | null)[]): Promise<Map<string, string>> {
      const wanted = [...new Set(ids.filter((id): id is string => id !== null && isUuid(id)))]
      if (wanted.length === 0) return new Map()
      const rows = await db
        .select({ id: devices.id, name: devices.name, revokedAt: devices.revokedAt, workspaceId: devices.workspaceId })
        .from(devices)
        .where(inArray(devices.id, wanted))
      const connected = new Set(rows.filter((row) => !row.revokedAt && row.workspaceId === workspaceId).map((row) => row.id))
      const names = new Map(rows.map((row) => [row.id, row.name]))
      return new Map(wanted.filter((id) => !connected.has(id)).map((id) => [id, names.get(id) ?? 'a removed runner']))
    },

    /** A device about itself: its name, its workspace and whose it is. */
    async me(deviceId: string) {
      const [row] = await db
        .select({
          ...summary,
          workspace: { id: workspaces.id, name: workspaces.name },
          user: { id: users.id, email: users.email, name: users.name },
        })
        .from(devices)
        .innerJoin(workspaces, eq(workspaces.id, devices.workspaceId))
        .innerJoin(users, eq(users.id, devices.userId))
        .where(and(eq(devices.id, deviceId), isNull(devices.revokedAt)))
      if (!row) throw new NotFound('Device not found.')
      return row
    },

    async rename(caller: Caller, id: string, name: string): Promise<DeviceSummary> {
      const before = await ownedBy(caller, id)
      return db.transaction(async (tx) => {
        const [row] = await tx.update(devices).set({ name }).where(eq(devices.id, before.id)).returning(summary)
        if (!row) throw new NotFound('Device not found.')
        await activity.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: 'device.rename',
          targetType: 'device',
          targetId: row.id,
          summary: `Renamed the device ${before.name} to ${name}`,
        })
        return row
      })
    },

    /**
     * Lets one of the caller's devices receive the vault values its runs type, sealed to its key, or
     * stops it (docs/decisions/048). Whoever holds a device can read what it receives, so only the
     * workspace's admins and owner may allow it, and only a device that made a key when paired.
     */
    async allowVaultValues(caller: Caller, id: string, allowed: boolean): Promise<DeviceSummary> {
      const before = await ownedBy(caller, id)
      if (allowed) {
        requireWorkspaceRole(caller.workspace.role, 'admin', 'Letting a device receive vault values')
        if (!before.holdsKey)
          throw new Conflict(
            `“${before.name}” was connected before devices kept a key for vault values: disconnect it and connect it again, then allow them.`,
          )
      }
      if (before.vaultValues === allowed) return before
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(devices)
          .set({ vaultValuesAllowedAt: allowed ? new Date() : null })
          .where(eq(devices.id, before.id))
          .returning(summary)
        if (!row) throw new NotFound('Device not found.')
        await activity.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: allowed ? 'device.vault_allow' : 'device.vault_stop',
          targetType: 'device',
          targetId: row.id,
          summary: allowed ? `Allowed ${row.name} to receive vault values, sealed to its key` : `Stopped vault values reaching ${row.name}`,
        })
        return row
      })
    },

    /**
     * Revokes every device of an account, in every workspace, after refusing the pairings it
     * approved that no device has collected yet (so none turns into a token afterwards): a
     * password change does this unless the member keeps them (docs/decisions/015). The number of
     * devices revoked.
     */
    async revokeAllOf(userId: string): Promise<number> {
      return db.transaction(async (tx) => {
        // Pairings first: a collect under way holds the pairing's row, and its device is then seen below.
        await tx
          .update(devicePairings)
          .set({ status: 'denied' })
          .where(and(eq(devicePairings.userId, userId), eq(devicePairings.status, 'approved')))
        return (await revokeDevices(tx, eq(devices.userId, userId))).length
      })
    },

    /** Revokes one of the caller's devices: its token is refused from its next request on. */
    async revoke(caller: Caller, id: string): Promise<DeviceSummary> {
      const device = await ownedBy(caller, id)
      return db.transaction(async (tx) => {
        await revokeDevices(tx, eq(devices.id, device.id))
        await activity.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: 'device.revoke',
          targetType: 'device',
          targetId: device.id,
          summary: `Disconnected ${device.name} (${DEVICE_KIND_NAMES[device.kind].toLowerCase()})`,
        })
        return device
      })
    },
  }
}

export type DeviceService = ReturnType<typeof createDeviceService>
