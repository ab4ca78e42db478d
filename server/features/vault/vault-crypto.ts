import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'

// Envelope encryption for the vault (docs/decisions/025): AES-256-GCM everywhere. The vault key
// (VAULT_KEY) never encrypts data itself: a key derived from it with HKDF-SHA256 wraps one random
// data key per workspace, and the data key seals that workspace's secrets and browser sessions.
// Every sealed value is bound (GCM additional data) to where it belongs, so a value copied to
// another row or workspace does not open.

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16
export const DATA_KEY_BYTES = 32

/** The key that wraps data keys, derived from VAULT_KEY; with its fingerprint (which VAULT_KEY it is). */
export interface WrappingKey {
  key: Buffer
  fingerprint: string
}

export function wrappingKeyFrom(vaultKey: string): WrappingKey {
  const key = Buffer.from(hkdfSync('sha256', vaultKey, 'aether-vault', 'workspace data keys v1', DATA_KEY_BYTES))
  const fingerprint = createHmac('sha256', key).update('aether vault key fingerprint').digest('hex').slice(0, 16)
  return { key, fingerprint }
}

/**
 * The vault key used when VAULT_KEY is not set (development, tests, a single-process install):
 * derived from the auth secret, so it is as secret and as stable as that (README, "Credential vault").
 */
export function defaultVaultKey(authSecret: string): string {
  return Buffer.from(hkdfSync('sha256', authSecret, 'aether-vault-default', 'vault key from the auth secret', 32)).toString('base64url')
}

export const newDataKey = () => randomBytes(DATA_KEY_BYTES)

/** Seals `plain` with `key`, bound to `context`: 'v1.' + base64url(iv | tag | ciphertext). */
export function seal(key: Buffer, plain: Buffer | string, context: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(context, 'utf8'))
  const body = Buffer.concat([cipher.update(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain), cipher.final()])
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`
}

/** Opens what `seal` made with the same key and context; throws when either differs or it was altered. */
export function open(key: Buffer, sealed: string, context: string): Buffer {
  const [version, payload] = sealed.split('.')
  if (version !== VERSION || !payload) throw new Error('not a sealed vault value')
  const bytes = Buffer.from(payload, 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
  decipher.setAAD(Buffer.from(context, 'utf8'))
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
}

/** Where each sealed thing belongs (the additional data it is bound to). */
export const contexts = {
  dataKey: (workspaceId: string) => `vault data key:${workspaceId}`,
  secret: (workspaceId: string, secretId: string) => `vault secret:${workspaceId}:${secretId}`,
  session: (workspaceId: string, automationId: string) => `browser session:${workspaceId}:${automationId}`,
}
