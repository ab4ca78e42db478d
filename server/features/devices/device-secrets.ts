import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { DEVICE_TOKEN_PREFIX, USER_CODE_ALPHABET, USER_CODE_LENGTH } from '#common/devices.ts'

// The three secrets of a pairing (docs/decisions/031): the user code the member types or follows,
// the poll secret only the device holds, and the device token it collects. Only hashes of the last
// two are stored; the code is short-lived and useless without the member's session.

/** dev_ and 43 base64url characters (32 random bytes): anything else is refused without a lookup. */
const TOKEN_SHAPE = new RegExp(`^${DEVICE_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`)
/** 43 base64url characters (32 random bytes). */
const POLL_SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export const newDeviceToken = () => `${DEVICE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`
export const newPollSecret = () => randomBytes(32).toString('base64url')
export const isDeviceTokenShaped = (token: string) => TOKEN_SHAPE.test(token)
export const isPollSecretShaped = (secret: unknown): secret is string => typeof secret === 'string' && POLL_SECRET_SHAPE.test(secret)

/** A user code without its dash: every letter drawn uniformly from the unambiguous alphabet. */
export function newUserCode(): string {
  return Array.from({ length: USER_CODE_LENGTH }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('')
}

/** Whether a secret matches the stored hash, in constant time. */
export function matchesHash(secret: string, hash: string): boolean {
  const expected = Buffer.from(hash, 'hex')
  const given = Buffer.from(sha256(secret), 'hex')
  return expected.length === given.length && timingSafeEqual(expected, given)
}
