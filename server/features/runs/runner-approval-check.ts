import { eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/client.ts'
import { type automations, devices, users } from '#server/db/schema/index.ts'
import type { RunTrigger } from '#common/automations.ts'

/** A local runner as its approvals are checked: whose it is, and whether it is still connected. */
export interface RunnerFacts {
  id: string
  name: string
  workspaceId: string
  userId: string
  ownerEmail: string
  ownerName: string
  revoked: boolean
}

type AutomationFacts = Pick<typeof automations.$inferSelect, 'name' | 'version' | 'deviceId' | 'deviceApprovedVersion'>

export async function runnerFacts(db: DbOrTx, deviceId: string): Promise<RunnerFacts | null> {
  const [row] = await db
    .select({
      id: devices.id,
      name: devices.name,
      workspaceId: devices.workspaceId,
      userId: devices.userId,
      ownerEmail: users.email,
      ownerName: users.name,
      revokedAt: devices.revokedAt,
      kind: devices.kind,
    })
    .from(devices)
    .innerJoin(users, eq(users.id, devices.userId))
    .where(eq(devices.id, deviceId))
  if (!row || row.kind !== 'runner') return null
  const { revokedAt, kind: _kind, ...facts } = row
  return { ...facts, revoked: revokedAt !== null }
}

const owner = (runner: Pick<RunnerFacts, 'ownerEmail' | 'ownerName'>) =>
  runner.ownerName.trim() ? `${runner.ownerName.trim()} (${runner.ownerEmail})` : runner.ownerEmail

/**
 * Why a run of `automation` may not be queued for `runner`, in `run.userId`'s name, or null when
 * it may (docs/decisions/032, amended): a runner runs only automations set to run on it whose
 * current version its owner saved or approved, and only in its owner's name. The owner starting a
 * run there themselves ("Run on …") chooses the version they start: any of the workspace's.
 */
export function whyNotQueuedFor(
  runner: RunnerFacts,
  automation: AutomationFacts | null,
  run: { userId: string | null; trigger: RunTrigger },
): string | null {
  if (!automation) return 'Its automation was deleted.'
  const inNameOf = run.userId
  if (run.trigger !== 'schedule' && inNameOf === runner.userId) return null
  if (run.trigger !== 'schedule') return `Only ${owner(runner)} can start runs on their local runner “${runner.name}”.`
  if (automation.deviceId !== runner.id) return `“${automation.name}” no longer runs on the local runner “${runner.name}”.`
  if (inNameOf !== runner.userId) return `Only ${owner(runner)}'s runs go to their local runner “${runner.name}”.`
  if (automation.deviceApprovedVersion !== automation.version) {
    return (
      `“${automation.name}” (version ${automation.version}) waits for ${owner(runner)}'s approval: it runs on their local runner ` +
      `“${runner.name}”, which runs only what they saved or approved. They approve it on the automation's page.`
    )
  }
  return null
}

/**
 * Why a queued run may not be taken up by its runner now, or null when it may: the rule of
 * whyNotQueuedFor still holds, and the run's steps are the version approved.
 */
export function whyNotClaimed(
  runner: RunnerFacts,
  automation: AutomationFacts | null,
  run: { userId: string | null; automationVersion: number | null; trigger: RunTrigger },
): string | null {
  const refusal = whyNotQueuedFor(runner, automation, run)
  if (refusal || !automation) return refusal
  if (run.automationVersion === null) {
    return 'It was queued before local runners ran only what their owner approved: the next scheduled run takes the approved version.'
  }
  if (run.automationVersion !== automation.version) {
    return `“${automation.name}” changed after this run was queued (version ${run.automationVersion}, now ${automation.version}): the next scheduled run takes the current version.`
  }
  return null
}
