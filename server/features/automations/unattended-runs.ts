import { isDeepStrictEqual } from 'node:util'
import { eq } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { parseSteps } from '#common/automation-steps.ts'
import { requireVerifiedEmail } from '#common/email-verification.ts'
import type { ZonedSchedule } from '#common/schedules.ts'
import type { DbOrTx } from '#server/db/client.ts'
import { automationTriggers } from '#server/db/schema/index.ts'
import type { Automation } from './automation.service.ts'
import { sameSchedule } from './automation-schedules.ts'

/** What decides what a run of the automation does (its name, description and runner do not). */
const WHAT_IT_DOES = ['steps', 'selfRepair', 'keepSession', 'signInBlock', 'runTimeLimitSeconds', 'runStepLimit'] as const
type WhatItDoes = Partial<Pick<Automation, (typeof WHAT_IT_DOES)[number]>>

/** Whether and where a schedule fires. */
export type Firing = Pick<Automation, 'schedule' | 'enabled' | 'deviceId'>

/** The schedule as it fires in the cloud: null when there is none, it is paused, or its runs wait for a local runner. */
export function cloudScheduleOf(automation: Firing): ZonedSchedule | null {
  return automation.schedule && automation.enabled && !automation.deviceId ? automation.schedule : null
}

/** A value as the database gives it back (no undefined keys); steps as the parser reads them, so key order and defaults do not count. */
function comparable(field: (typeof WHAT_IT_DOES)[number], value: unknown): unknown {
  if (field === 'steps' && Array.isArray(value)) {
    const parsed = parseSteps(value)
    if (parsed.ok) return JSON.parse(JSON.stringify(parsed.steps)) as unknown
  }
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown)
}

/**
 * A scheduled cloud run is charged to the automation's owner, a trigger URL's run to the URL's
 * creator (unverified-allowance.ts), so someone else's automation could give an account whose
 * address is not verified cloud runs past the Free plan's. Until it is verified, on an automation
 * it does not own (or nobody owns), it may not make the automation run by itself in the cloud (set,
 * change or resume its schedule there, or move a schedule from a local runner to the cloud), nor
 * change what the automation does (steps, sign-in block, kept session, self-repair, run limits)
 * while a schedule or a trigger URL runs it in the cloud. Pausing or removing a schedule, renaming,
 * and its own automations stay open (docs/decisions/040, amended).
 */
export async function requireVerifiedForUnattendedRuns(
  db: DbOrTx,
  caller: Pick<Caller, 'id' | 'email' | 'emailVerified'>,
  current: Automation,
  after: Firing,
  changes: WhatItDoes,
): Promise<void> {
  if (caller.emailVerified || current.ownerId === caller.id) return
  const firing = cloudScheduleOf(after)
  if (firing && !sameSchedule(firing, cloudScheduleOf(current))) requireVerifiedEmail(caller, { kind: 'schedule' })
  const changesWhatItDoes = WHAT_IT_DOES.some(
    (field) => changes[field] !== undefined && !isDeepStrictEqual(comparable(field, changes[field]), comparable(field, current[field])),
  )
  if (!changesWhatItDoes) return
  if (firing || (await hasTriggerUrl(db, current.id))) requireVerifiedEmail(caller, { kind: 'unattended-automation' })
}

async function hasTriggerUrl(db: DbOrTx, automationId: string): Promise<boolean> {
  const [trigger] = await db
    .select({ id: automationTriggers.id })
    .from(automationTriggers)
    .where(eq(automationTriggers.automationId, automationId))
  return Boolean(trigger)
}
