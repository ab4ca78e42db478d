import { and, eq, isNull, lt } from 'drizzle-orm'
import {
  CODE_LOOKUP_RATE_LIMIT,
  DEVICE_KIND_NAMES,
  formatUserCode,
  normalizeUserCode,
  PAIRING_POLL_INTERVAL_SECONDS,
  PAIRING_RATE_LIMIT,
  PAIRING_TTL_SECONDS,
  PairingState,
  type DeviceKind,
  type PairingRequest,
} from '#common/devices.ts'
import { NotFound, Unauthorized, ValidationError } from '#common/errors.ts'
import { isDevicePublicKey } from '#common/device-seal.ts'
import { isUuid } from '#common/ids.ts'
import { lacksRequiredTwoFactor, TwoFactorRequired } from '#common/two-factor-requirement.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { devicePairings, devices, workspaces } from '#server/db/schema/index.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { WorkspaceService } from '#server/features/workspaces/workspace.service.ts'
import { isPollSecretShaped, matchesHash, newDeviceToken, newPollSecret, newUserCode, sha256 } from './device-secrets.ts'
import { createDevicePlaces } from './device-places.ts'
import { createPairingAnswerers, type PairingMember } from './pairing-answerers.ts'

/** What a device receives when it asks to pair: the only time its poll secret exists outside it. */
export interface IssuedPairing {
  pairingId: string
  userCode: string
  pollSecret: string
  verificationUrl: string
  expiresIn: number
  interval: number
}

/** What /connect shows of a pairing before the member decides. */
export interface PairingPreview {
  pairingId: string
  userCode: string
  name: string
  kind: DeviceKind
  version: string
  /** pending: waiting for a decision; anything else cannot be approved any more. */
  status: 'pending' | 'expired' | 'approved' | 'denied'
}

/** What the device collects, once. */
export interface CollectedDevice {
  token: string
  device: { id: string; name: string; kind: DeviceKind }
  workspace: { id: string; name: string }
}

type Pairing = typeof devicePairings.$inferSelect

/** Any other answer would tell a stranger which pairings exist. */
const UNKNOWN = 'Unknown pairing, or a wrong poll secret.'
/** How long a pairing is kept after it expired, so its device is told it expired rather than that it never existed. */
const KEEP_EXPIRED_MS = 60 * 60 * 1000
const CODE_ATTEMPTS = 5
/** For no pairing, and for one of a workspace the member may not answer for: only its members learn that it exists. */
const NO_DEVICE = 'No device is waiting with this code. Check the code your device shows, or start again on the device.'

const isExpired = (pairing: Pick<Pairing, 'expiresAt'>, now = Date.now()) => pairing.expiresAt.getTime() <= now

/**
 * Device pairing (docs/decisions/031), after OAuth's device authorization grant (RFC 8628): a
 * device asks with its name, kind and version and gets a user code and a poll secret; the member,
 * signed in on /connect, approves it for one of their workspaces (within the plan's devices) or
 * denies it; the device polls with its secret and collects its token once.
 *
 * A pending pairing belongs to a workspace from the moment a member first opens its code (or
 * answers it): the one they are working in, or their personal one when they may not connect
 * devices there. From then on only that workspace's members (Member role or above) see it and
 * answer it, so someone else who learns the code can neither deny nor approve it (issue 27, item 8).
 */
export function createPairingService(deps: {
  db: Db
  plans: Pick<PlanService, 'allowancesOf' | 'cheapestWithMoreDevices'>
  workspaces: Pick<WorkspaceService, 'access'>
  rateLimits: Pick<RateLimitService, 'consume'>
  activity: Pick<AuditService, 'record'>
  publicUrl: string
}) {
  const { db, plans, workspaces: workspaceAccess, rateLimits, activity, publicUrl } = deps
  const { mayAnswerIn, homeOf, countAnswer, answerableFor } = createPairingAnswerers({ workspaces: workspaceAccess, rateLimits })
  const { placesTakenIn, requireDevicePlace } = createDevicePlaces(plans)

  async function findByCode(typed: string): Promise<Pairing | null> {
    const code = normalizeUserCode(typed)
    if (!code) return null
    const [pairing] = await db.select().from(devicePairings).where(eq(devicePairings.userCode, code))
    return pairing ?? null
  }

  /**
   * A pending pairing by its code, locked for a decision: one that belongs to a workspace not in
   * `allowed` (pairing-answerers.ts) is as unknown as no pairing. Refusals say why it cannot be decided.
   */
  async function pendingIn(tx: Tx, typed: string, allowed: Set<string>): Promise<Pairing> {
    const code = normalizeUserCode(typed)
    const [pairing] = code ? await tx.select().from(devicePairings).where(eq(devicePairings.userCode, code)).for('update') : []
    if (!pairing || (pairing.workspaceId && !allowed.has(pairing.workspaceId))) throw new NotFound(NO_DEVICE)
    if (pairing.status !== 'pending') throw new PairingState('PAIRING_EXPIRED', 'This code was already used. Start again on the device.')
    if (isExpired(pairing)) throw new PairingState('PAIRING_EXPIRED', 'This code has expired. Start again on the device for a new one.')
    return pairing
  }

  /** The workspace's activity entry of an answer: "Connected …" or "Denied …" and the device. */
  async function recordAnswer(tx: Tx, member: PairingMember, workspaceId: string, pairing: Pairing, answer: 'approve' | 'deny') {
    const device = `${pairing.name} (${DEVICE_KIND_NAMES[pairing.kind].toLowerCase()} ${pairing.version})`
    await activity.record(
      tx,
      { id: member.id, email: member.email },
      {
        workspaceId,
        action: `device.${answer}`,
        targetType: 'device',
        targetId: pairing.id,
        summary: answer === 'approve' ? `Connected ${device}` : `Denied ${device}`,
      },
    )
  }

  return {
    /** How many devices the workspace has connected (or is connecting), and how many its plan allows (null: no limit). */
    async usage(workspaceId: string): Promise<{ taken: number; limit: number | null }> {
      const { devices: limit } = await plans.allowancesOf(workspaceId)
      return { taken: await placesTakenIn(db, workspaceId), limit }
    },

    /** A device asks to be connected; rate limited per client address. */
    async request(input: PairingRequest, clientIp: string): Promise<IssuedPairing> {
      await rateLimits.consume(`device-pairing:${clientIp}`, {
        ...PAIRING_RATE_LIMIT,
        message: `At most ${PAIRING_RATE_LIMIT.limit} pairing requests a minute from one address. Please retry later.`,
      })
      // Codes are unique while their pairing is kept; old ones free theirs.
      await db.delete(devicePairings).where(lt(devicePairings.expiresAt, new Date(Date.now() - KEEP_EXPIRED_MS)))
      const pollSecret = newPollSecret()
      for (let attempt = 1; ; attempt++) {
        const userCode = newUserCode()
        try {
          const [row] = await db
            .insert(devicePairings)
            .values({
              userCode,
              pollSecretHash: sha256(pollSecret),
              name: input.name,
              kind: input.kind,
              version: input.version,
              expiresAt: new Date(Date.now() + PAIRING_TTL_SECONDS * 1000),
            })
            .returning({ id: devicePairings.id })
          if (!row) throw new Error('pairing insert returned nothing')
          const shown = formatUserCode(userCode)
          return {
            pairingId: row.id,
            userCode: shown,
            pollSecret,
            verificationUrl: `${publicUrl}/connect?code=${shown}`,
            expiresIn: PAIRING_TTL_SECONDS,
            interval: PAIRING_POLL_INTERVAL_SECONDS,
          }
        } catch (error) {
          if (attempt < CODE_ATTEMPTS && isUniqueViolation(error)) continue
          throw error
        }
      }
    },

    /**
     * The pairing a code names, for the member to decide on; null for a code that names none, or
     * one of a workspace they may not answer for. The first member to open a pending code makes it
     * their workspace's (see above). Rate limited per member.
     */
    async preview(typed: string, member: PairingMember): Promise<PairingPreview | null> {
      await rateLimits.consume(`device-code:${member.id}`, {
        ...CODE_LOOKUP_RATE_LIMIT,
        message: `At most ${CODE_LOOKUP_RATE_LIMIT.limit} codes a minute. Please wait a moment and try again.`,
      })
      let pairing = await findByCode(typed)
      if (!pairing) return null
      if (!pairing.workspaceId && pairing.status === 'pending' && !isExpired(pairing)) {
        // Only if nobody opened it in the meantime: the first one to open it decides.
        await db
          .update(devicePairings)
          .set({ workspaceId: await homeOf(member) })
          .where(and(eq(devicePairings.id, pairing.id), eq(devicePairings.status, 'pending'), isNull(devicePairings.workspaceId)))
        pairing = await findByCode(typed)
        if (!pairing) return null
      }
      if (pairing.workspaceId && !(await mayAnswerIn(member, pairing.workspaceId))) return null
      const status =
        pairing.status === 'pending' ? (isExpired(pairing) ? 'expired' : 'pending') : pairing.status === 'denied' ? 'denied' : 'approved'
      return {
        pairingId: pairing.id,
        userCode: formatUserCode(pairing.userCode),
        name: pairing.name,
        kind: pairing.kind,
        version: pairing.version,
        status,
      }
    },

    /**
     * Approves the pairing for one of the member's workspaces where they are a member or above, if
     * the workspace's plan has a device place left (counted under the workspace's lock).
     */
    async approve(
      typed: string,
      member: PairingMember,
      workspaceId: string,
      clientIp: string,
    ): Promise<{ name: string; workspace: { id: string; name: string } }> {
      await countAnswer(member, clientIp)
      const access = await workspaceAccess.access(member.id, workspaceId)
      if (!access) throw new NotFound('Workspace not found')
      requireWorkspaceRole(access.role, 'member', 'Connecting a device')
      if (lacksRequiredTwoFactor({ twoFactorEnabled: member.twoFactorEnabled, workspace: access })) throw new TwoFactorRequired()
      const allowed = await answerableFor(member, (await findByCode(typed))?.workspaceId, workspaceId)
      return db.transaction(async (tx) => {
        await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update')
        const pairing = await pendingIn(tx, typed, allowed)
        await requireDevicePlace(tx, workspaceId)
        await tx.update(devicePairings).set({ status: 'approved', workspaceId, userId: member.id }).where(eq(devicePairings.id, pairing.id))
        await recordAnswer(tx, member, workspaceId, pairing, 'approve')
        return { name: pairing.name, workspace: { id: access.id, name: access.name } }
      })
    },

    /**
     * Refuses the pairing, for the workspace it belongs to (the member's own, when nobody opened
     * it before): its device is told so at its next poll, and the workspace's activity says who.
     */
    async deny(typed: string, member: PairingMember, clientIp: string): Promise<{ name: string }> {
      await countAnswer(member, clientIp)
      const home = await homeOf(member)
      const allowed = await answerableFor(member, (await findByCode(typed))?.workspaceId)
      return db.transaction(async (tx) => {
        const pairing = await pendingIn(tx, typed, allowed)
        const workspaceId = pairing.workspaceId ?? home
        await tx.update(devicePairings).set({ status: 'denied', workspaceId }).where(eq(devicePairings.id, pairing.id))
        await recordAnswer(tx, member, workspaceId, pairing, 'deny')
        return { name: pairing.name }
      })
    },

    /**
     * A device's poll: with the right secret, its token once the member approved (then the
     * pairing is used up), or why there is none (pending, expired, denied). A wrong secret, an
     * unknown or malformed id: 401, telling nothing.
     */
    async collect(pairingId: string, poll: { pollSecret: unknown; publicKey?: unknown }): Promise<CollectedDevice> {
      const { pollSecret, publicKey } = poll
      if (!isUuid(pairingId) || !isPollSecretShaped(pollSecret)) throw new Unauthorized(UNKNOWN)
      const [found] = await db.select().from(devicePairings).where(eq(devicePairings.id, pairingId))
      if (!found || !matchesHash(pollSecret, found.pollSecretHash)) throw new Unauthorized(UNKNOWN)
      if (publicKey !== undefined && !(await isDevicePublicKey(publicKey))) {
        throw new ValidationError('publicKey must be a P-256 public key: base64url of its uncompressed point (65 bytes).', [
          { path: 'publicKey', message: 'Not a P-256 public key.' },
        ])
      }
      return db.transaction(async (tx) => {
        const [pairing] = await tx.select().from(devicePairings).where(eq(devicePairings.id, pairingId)).for('update')
        if (!pairing) throw new Unauthorized(UNKNOWN)
        if (pairing.status === 'denied') throw new PairingState('PAIRING_DENIED', 'The member denied this pairing.')
        if (pairing.status === 'completed') throw new PairingState('PAIRING_EXPIRED', 'This pairing was already used: start a new one.')
        if (isExpired(pairing)) throw new PairingState('PAIRING_EXPIRED', 'This pairing expired before it was approved: start a new one.')
        if (pairing.status === 'pending' || !pairing.workspaceId || !pairing.userId) {
          throw new PairingState('PAIRING_PENDING', 'Waiting for the member to approve this device.')
        }
        const token = newDeviceToken()
        const [device] = await tx
          .insert(devices)
          .values({
            workspaceId: pairing.workspaceId,
            userId: pairing.userId,
            name: pairing.name,
            kind: pairing.kind,
            version: pairing.version,
            tokenHash: sha256(token),
            publicKey: typeof publicKey === 'string' ? publicKey : null,
          })
          .returning({ id: devices.id, name: devices.name, kind: devices.kind })
        if (!device) throw new Error('device insert returned nothing')
        await tx.update(devicePairings).set({ status: 'completed', deviceId: device.id }).where(eq(devicePairings.id, pairing.id))
        const [workspace] = await tx
          .select({ id: workspaces.id, name: workspaces.name })
          .from(workspaces)
          .where(eq(workspaces.id, pairing.workspaceId))
        if (!workspace) throw new PairingState('PAIRING_EXPIRED', 'The workspace this pairing was approved for is gone.')
        return { token, device, workspace }
      })
    },
  }
}

export type PairingService = ReturnType<typeof createPairingService>
