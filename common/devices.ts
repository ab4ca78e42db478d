import { AppError } from './errors.ts'
import { z } from './zod.ts'

// Connected devices and how they pair (docs/decisions/031): a browser extension or a local runner
// asks for a pairing, the member approves it on /connect, and the device collects a token once.

export const DEVICE_KINDS = ['extension', 'runner'] as const
export type DeviceKind = (typeof DEVICE_KINDS)[number]
export const DEVICE_KIND_NAMES: Record<DeviceKind, string> = { extension: 'Browser extension', runner: 'Local runner' }

/** What a plan's device limit allows, as the refusals say it: 'connects 1 device', 'connects no devices'. */
export const connectsDevices = (limit: number) =>
  limit === 0 ? 'connects no devices' : `connects ${limit} device${limit === 1 ? '' : 's'}`

/** Every device token starts with this, so a bearer value is told from a key or a session token at a glance. */
export const DEVICE_TOKEN_PREFIX = 'dev_'
/** The header a device names its own version in; every request that sends it updates the device's version. */
export const CLIENT_VERSION_HEADER = 'X-Aether-Client-Version'

/** How long a pairing waits for the member, and how often its device should ask (RFC 8628's expires_in and interval). */
export const PAIRING_TTL_SECONDS = 600
export const PAIRING_POLL_INTERVAL_SECONDS = 3
/** Pairings one client address may ask for per minute; code lookups one member may make per minute on /connect. */
export const PAIRING_RATE_LIMIT = { limit: 10, windowSeconds: 60 } as const
export const CODE_LOOKUP_RATE_LIMIT = { limit: 30, windowSeconds: 60 } as const
/** Answers (Connect or Deny) one member may give per minute on /connect, and one client address. */
export const PAIRING_ANSWER_RATE_LIMIT = { limit: 10, windowSeconds: 60 } as const
export const PAIRING_ANSWER_PER_ADDRESS_RATE_LIMIT = { limit: 20, windowSeconds: 60 } as const

/** The user code's letters: no 0/O, 1/I, so a code read aloud or typed from a small screen is not mistaken. */
export const USER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
export const USER_CODE_LENGTH = 8

/** The code as a person reads it: ABCD-2345. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`

/** The code as stored, from whatever was typed ('abcd 2345', 'ABCD-2345'); null when it cannot be one. */
export function normalizeUserCode(typed: unknown): string | null {
  if (typeof typed !== 'string' || typed.length > 40) return null
  const code = typed.toUpperCase().replace(/[\s-]/g, '')
  if (code.length !== USER_CODE_LENGTH) return null
  return [...code].every((letter) => USER_CODE_ALPHABET.includes(letter)) ? code : null
}

const DEVICE_NAME_MAX = 60
const deviceName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(DEVICE_NAME_MAX, `Name must be at most ${DEVICE_NAME_MAX} characters.`)

/** What a device says about itself when it asks to pair (POST /devices/pairings). */
export const pairingRequestSchema = z.object({
  name: deviceName,
  kind: z.enum(DEVICE_KINDS, { error: `kind must be one of: ${DEVICE_KINDS.join(', ')}` }),
  version: z
    .string({ error: 'version is required' })
    .trim()
    .min(1, 'version is required')
    .max(40, 'version must be at most 40 characters.'),
})
export type PairingRequest = z.infer<typeof pairingRequestSchema>

/** Renaming a device (Settings -> Devices, PATCH /devices/{id}). */
export const deviceRenameSchema = z.object({ name: deviceName })

/** Changing a device (PATCH /devices/{id}): its name, whether it receives vault values (docs/decisions/048), or both. */
export const deviceChangeSchema = z
  .object({
    name: deviceName.optional(),
    vaultValues: z.boolean({ error: 'vaultValues must be true or false.' }).optional(),
  })
  .refine((change) => change.name !== undefined || change.vaultValues !== undefined, 'Give name, vaultValues or both.')

/** The answers of a device's poll that are not its token (RFC 8628's authorization_pending, expired_token, access_denied). */
export type PairingStateCode = 'PAIRING_PENDING' | 'PAIRING_EXPIRED' | 'PAIRING_DENIED'

/** A poll answered before the member approved (400), or after the pairing ended without a token to give (410). */
export class PairingState extends AppError {
  constructor(
    readonly state: PairingStateCode,
    message: string,
  ) {
    super(state === 'PAIRING_PENDING' ? 400 : 410, message, state)
  }
}

export const DEVICE_ONLY_MESSAGE = 'This is for a connected device: call it with the device’s own token (Authorization: Bearer dev_...).'
export const DEVICE_REFUSED_MESSAGE =
  'A device token works for automations and runs only: keys, the vault, devices, webhooks, billing, the workspace and the account need you signed in.'
