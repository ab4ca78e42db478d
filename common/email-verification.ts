import { AppError } from './errors.ts'

// What an account whose e-mail address is not verified may not do yet (issue 27, item 12): what
// reaches other people or costs money. Signing in and everything else still work. One guard, one
// code, used by every service that does one of these things, whoever calls it (a page, the API
// with a session, an API key or a device token: they act as their member). No zod here: the
// banner and the checkout buttons read it in the browser.

export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED'

/** What waits for a verified address, as the refusal names it ("Verify your e-mail address to …"). */
export type VerifiedOnly =
  | { kind: 'invite' }
  | { kind: 'webhook' }
  /** Pointing an existing endpoint at another address (docs/decisions/040, amended). */
  | { kind: 'webhook-address' }
  /** A test event or a redelivery, sent at once to the endpoint's address. */
  | { kind: 'webhook-send' }
  | { kind: 'trigger' }
  /** Making someone else's automation run by itself in the cloud: setting, changing, resuming or moving its schedule there. */
  | { kind: 'schedule' }
  /** Changing what someone else's automation does while its schedule or trigger URL runs it in the cloud. */
  | { kind: 'unattended-automation' }
  | { kind: 'purchase' }
  /** Cloud runs beyond the Free plan's monthly runs (`limit`), whatever the workspace's plan. */
  | { kind: 'cloud-runs'; limit: number }

const WHAT: { [K in VerifiedOnly['kind']]: (action: Extract<VerifiedOnly, { kind: K }>) => string } = {
  invite: () => 'invite people',
  webhook: () => 'add webhook endpoints',
  'webhook-address': () => "change a webhook endpoint's address",
  'webhook-send': () => 'send test events or redeliver webhook messages',
  trigger: () => 'create trigger URLs',
  schedule: () => "schedule someone else's automation to run in the cloud",
  'unattended-automation': () => "change what someone else's automation does while its schedule or trigger URL runs it in the cloud",
  purchase: () => 'buy or change a plan',
  'cloud-runs': ({ limit }) => `run more than ${limit} automation${limit === 1 ? '' : 's'} a month in the cloud`,
}

export class EmailNotVerified extends AppError {
  constructor(email: string, action: VerifiedOnly) {
    const what = (WHAT[action.kind] as (action: VerifiedOnly) => string)(action)
    super(
      403,
      `Verify your e-mail address to ${what}. We sent a link to ${email}; you can send it again from the banner.`,
      EMAIL_NOT_VERIFIED,
    )
  }
}

/** The person acting, as far as the rule is concerned. */
export interface VerifiablePerson {
  email: string
  emailVerified: boolean
}

/** The refusal for this person and action, or null when their address is verified. */
export function emailVerificationRefusal(person: VerifiablePerson, action: VerifiedOnly): EmailNotVerified | null {
  return person.emailVerified ? null : new EmailNotVerified(person.email, action)
}

/** Throws EmailNotVerified (403) unless the person's address is verified. */
export function requireVerifiedEmail(person: VerifiablePerson, action: VerifiedOnly): void {
  const refused = emailVerificationRefusal(person, action)
  if (refused) throw refused
}
