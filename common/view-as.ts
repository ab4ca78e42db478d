import { AppError } from './errors.ts'
import { adminReasonSchema } from './suspension.ts'
import { z } from './zod.ts'

/** How long an admin views the app as a member (docs/decisions/064); never extended. */
export const VIEW_AS_MINUTES = 30

export const READ_ONLY_VIEW_CODE = 'READ_ONLY_VIEW'

/** What every refused change says while an admin views the app as `email`. */
export const readOnlyViewMessage = (email: string) => `Read-only: you are viewing as ${email}. End viewing to make changes.`

/**
 * A change asked for with a session an admin opened as a member: refused whatever it is, with 403,
 * before any page action or API handler reads it (server/http/view-as.ts).
 */
export class ReadOnlyView extends AppError {
  constructor(email: string) {
    super(403, readOnlyViewMessage(email), READ_ONLY_VIEW_CODE)
  }
}

/** Whom an admin may not view the app as: what the account is, as the Users table and the server both know it. */
export interface ViewAsTarget {
  email: string
  isSelf: boolean
  isAdmin: boolean
  suspended: boolean
  /** The member asked to delete their account (docs/decisions/065): until they cancel, nothing of theirs signs in. */
  deletionPending: boolean
}

/**
 * Why an admin cannot view the app as this account, or null when they can (docs/decisions/064).
 * The server refuses with it (409) and the Users table's dialog says it before asking for a reason.
 */
export function viewAsRefusal(target: ViewAsTarget): string | null {
  if (target.isSelf) return 'You cannot view Aether as yourself.'
  if (target.isAdmin) return `${target.email} is an admin: you can view Aether only as a member.`
  if (target.suspended) return `${target.email} is suspended: unsuspend them to view Aether as them.`
  if (target.deletionPending) return `${target.email} asked to delete their account: it cannot be viewed while the deletion waits.`
  return null
}

/** An admin views the app as a member (the Users table's dialog, POST /api/users/:id/view-as): why, in their words. */
export const viewAsSchema = z.object({ reason: adminReasonSchema })
export type ViewAsInput = z.infer<typeof viewAsSchema>

/** "14:05": the time of day in UTC, as the banner and the audit log say when viewing ends. */
export const utcTimeOfDay = (at: Date) => at.toISOString().slice(11, 16)
