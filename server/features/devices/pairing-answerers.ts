import { PAIRING_ANSWER_PER_ADDRESS_RATE_LIMIT, PAIRING_ANSWER_RATE_LIMIT } from '#common/devices.ts'
import { lacksRequiredTwoFactor } from '#common/two-factor-requirement.ts'
import { hasRole } from '#common/workspaces.ts'
import type { Actor } from '#server/features/audit/audit.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { WorkspaceService } from '#server/features/workspaces/workspace.service.ts'

/** Who answers a code on /connect: a signed-in member, and the workspace they are working in. */
export type PairingMember = Actor & { twoFactorEnabled: boolean; workspace?: { id: string } | null }

/**
 * Who may answer a pairing (part of the pairing service, pairing.service.ts): the members of the
 * workspace it belongs to, Member role or above, within the limits on answers (issue 27, item 8).
 */
export function createPairingAnswerers(deps: {
  workspaces: Pick<WorkspaceService, 'access'>
  rateLimits: Pick<RateLimitService, 'consume'>
}) {
  const { workspaces, rateLimits } = deps

  /** Whether the member may answer pairings of this workspace: Member or above, and not kept out by its two-factor rule. */
  async function mayAnswerIn(member: PairingMember, workspaceId: string): Promise<boolean> {
    const access = await workspaces.access(member.id, workspaceId)
    return (
      access !== null &&
      hasRole(access.role, 'member') &&
      !lacksRequiredTwoFactor({ twoFactorEnabled: member.twoFactorEnabled, workspace: access })
    )
  }

  return {
    mayAnswerIn,

    /**
     * The workspaces for which the member may answer this pairing: `checked` (the workspace an
     * approval is for, checked already), and the one it belongs to when they may answer there.
     * Read before the deciding transaction, which cannot wait for other reads (PGlite).
     */
    async answerableFor(member: PairingMember, belongsTo: string | null | undefined, checked?: string): Promise<Set<string>> {
      const allowed = new Set(checked ? [checked] : [])
      if (belongsTo && !allowed.has(belongsTo) && (await mayAnswerIn(member, belongsTo))) allowed.add(belongsTo)
      return allowed
    },

    /** The workspace a pairing the member opens first belongs to: the one they work in, else their personal one. */
    async homeOf(member: PairingMember): Promise<string> {
      const current = member.workspace?.id
      return current && (await mayAnswerIn(member, current)) ? current : member.id
    },

    /** Counts one answer (approve or deny) against the member's and the client address's limits. */
    async countAnswer(member: PairingMember, clientIp: string): Promise<void> {
      await rateLimits.consume(`device-answer:member:${member.id}`, {
        ...PAIRING_ANSWER_RATE_LIMIT,
        message: `At most ${PAIRING_ANSWER_RATE_LIMIT.limit} device approvals or denials a minute. Please wait a moment and try again.`,
      })
      await rateLimits.consume(`device-answer:ip:${clientIp}`, {
        ...PAIRING_ANSWER_PER_ADDRESS_RATE_LIMIT,
        message: `At most ${PAIRING_ANSWER_PER_ADDRESS_RATE_LIMIT.limit} device approvals or denials a minute from one address. Please retry later.`,
      })
    },
  }
}
