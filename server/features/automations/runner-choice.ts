import { and, eq, isNull } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { AppError, ValidationError } from '#common/errors.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { devices, users } from '#server/db/schema/index.ts'

/** A connected local runner of a workspace, with whose it is. */
export interface RunnerOfWorkspace {
  id: string
  name: string
  userId: string
  ownerEmail: string
  ownerName: string
}

/** What a save writes about the runner: the runner, and whether the save approves the version it makes. */
export interface RunnerChoice {
  deviceId: string | null
  /**
   * 'approve': the runner's owner saves what they saw, so the new version may run there; 'renew':
   * the owner's other saves keep an approval that was current, current; 'keep': the approval stays
   * as it is (stale from now on); 'clear': no runner.
   */
  approval: 'approve' | 'renew' | 'keep' | 'clear'
  /** The runner it names was disconnected since it was chosen: its schedule stays paused until the member chooses again. */
  disconnected?: true
}

/** "Ada Lovelace (ada@example.com)", or the e-mail alone when the account has no name. */
export const ownerWords = (runner: Pick<RunnerOfWorkspace, 'ownerEmail' | 'ownerName'>) =>
  runner.ownerName.trim() ? `${runner.ownerName.trim()} (${runner.ownerEmail})` : runner.ownerEmail

/** The workspace's connected (not revoked) local runner by id, or null. */
export async function runnerOf(db: DbOrTx, workspaceId: string, deviceId: string): Promise<RunnerOfWorkspace | null> {
  const [runner] = await db
    .select({ id: devices.id, name: devices.name, userId: devices.userId, ownerEmail: users.email, ownerName: users.name })
    .from(devices)
    .innerJoin(users, eq(users.id, devices.userId))
    .where(and(eq(devices.id, deviceId), eq(devices.workspaceId, workspaceId), eq(devices.kind, 'runner'), isNull(devices.revokedAt)))
  return runner ?? null
}

/**
 * Whether the caller may have the automation run on the runner they send (docs/decisions/032,
 * amended): a runner runs the automations its owner approved. Choosing one's own runner approves
 * the version saved; keeping the runner an automation already names (someone else's) is allowed
 * and leaves the approval behind; newly choosing someone else's runner is refused, naming whose it is.
 * `wanted` undefined: the field was not sent, the current runner stays.
 */
export async function chooseRunner(
  db: Db,
  caller: Pick<Caller, 'id' | 'workspace'>,
  wanted: string | null | undefined,
  current: { deviceId: string | null } | null,
): Promise<RunnerChoice> {
  const deviceId = wanted === undefined ? (current?.deviceId ?? null) : wanted
  if (!deviceId) return { deviceId: null, approval: 'clear' }
  const runner = await runnerOf(db, caller.workspace.id, deviceId)
  if (!runner) {
    // A runner disconnected since it was chosen stays named (the field not sent, or sent as it was) until the member chooses again.
    if (wanted === undefined || wanted === current?.deviceId) return { deviceId, approval: 'keep', disconnected: true }
    const message = 'Scheduled runs can wait for a local runner connected to this workspace only: connect one, or run them in the cloud.'
    throw new ValidationError(message, [{ path: 'deviceId', message }])
  }
  if (runner.userId === caller.id) return { deviceId, approval: 'approve' }
  if (current?.deviceId === deviceId) return { deviceId, approval: 'keep' }
  const message = `“${runner.name}” is ${ownerWords(runner)}'s local runner: only they can choose it for an automation. Choose one of your own runners or the cloud, or ask them to choose their runner.`
  throw new AppError(403, message, 'RUNNER_NOT_YOURS', [{ path: 'deviceId', message }])
}

/**
 * A schedule may not run on a runner that was disconnected: it stays paused (docs/decisions/032,
 * amended) until the member chooses another runner or the cloud.
 */
export function requireConnectedForSchedule(runner: RunnerChoice, schedule: { enabled: boolean; schedule: unknown }): void {
  if (!runner.disconnected || !schedule.enabled || !schedule.schedule) return
  const message =
    'The local runner this schedule runs on was disconnected: choose another runner or the cloud before its schedule runs again.'
  throw new ValidationError(message, [{ path: 'deviceId', message }])
}
