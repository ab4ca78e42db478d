/**
 * Values sealed to one device's key (docs/decisions/048): the device keeps an ECDH P-256 key pair
 * it made itself and gave the server only the public half when it was paired; the server seals a
 * vault value for one run with a fresh key pair of its own (ECIES: ECDH, HKDF-SHA256, AES-256-GCM),
 * bound by GCM's additional data to where it belongs, so it opens only on that device, for that
 * run and that name. WebCrypto only: the same code runs on the server, in the runner (Node) and in
 * the extension.
 */

const CURVE = { name: 'ECDH', namedCurve: 'P-256' } as const
const VERSION = 'v1'
const INFO = new TextEncoder().encode('aether device seal v1')
/** An uncompressed P-256 point: 0x04, then x and y (32 bytes each). */
const PUBLIC_KEY_BYTES = 65

export const DEVICE_PUBLIC_KEY_SHAPE = /^[A-Za-z0-9_-]{87}$/

const subtle = () => globalThis.crypto.subtle

function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** A device's new key pair: the public half (base64url of the raw point) for the server, the private half (a JWK) kept on the device. */
export async function newDeviceKeys(): Promise<{ publicKey: string; privateKey: JsonWebKey }> {
  const pair = await subtle().generateKey(CURVE, true, ['deriveBits'])
  const raw = new Uint8Array(await subtle().exportKey('raw', pair.publicKey))
  return { publicKey: toBase64Url(raw), privateKey: await subtle().exportKey('jwk', pair.privateKey) }
}

async function importPublicKey(publicKey: string): Promise<CryptoKey> {
  if (!DEVICE_PUBLIC_KEY_SHAPE.test(publicKey)) throw new Error('not a device public key')
  const raw = fromBase64Url(publicKey)
  if (raw.length !== PUBLIC_KEY_BYTES || raw[0] !== 4) throw new Error('not a device public key')
  return subtle().importKey('raw', raw, CURVE, true, [])
}

/** Whether the text is an uncompressed P-256 public key, base64url (a point on the curve). */
export async function isDevicePublicKey(text: unknown): Promise<boolean> {
  if (typeof text !== 'string') return false
  try {
    await importPublicKey(text)
    return true
  } catch {
    return false
  }
}

async function sealingKey(privateKey: CryptoKey, publicKey: CryptoKey, salt: Uint8Array<ArrayBuffer>, usage: KeyUsage): Promise<CryptoKey> {
  const shared = await subtle().deriveBits({ name: 'ECDH', public: publicKey }, privateKey, 256)
  const material = await subtle().importKey('raw', shared, 'HKDF', false, ['deriveKey'])
  return subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt, info: INFO }, material, { name: 'AES-GCM', length: 256 }, false, [usage])
}

/** The value sealed to the device's public key, bound to `context` (opened only with the same context). */
export async function sealForDevice(publicKey: string, value: string, context: string): Promise<string> {
  const device = await importPublicKey(publicKey)
  const ephemeral = await subtle().generateKey(CURVE, true, ['deriveBits'])
  const ephemeralRaw = new Uint8Array(await subtle().exportKey('raw', ephemeral.publicKey))
  const key = await sealingKey(ephemeral.privateKey, device, ephemeralRaw, 'encrypt')
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12))
  const sealed = await subtle().encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(context) },
    key,
    new TextEncoder().encode(value),
  )
  return [VERSION, toBase64Url(ephemeralRaw), toBase64Url(iv), toBase64Url(new Uint8Array(sealed))].join('.')
}

/** Opens a value sealed to this device for `context`; throws when it was sealed to another key or for another context. */
export async function openOnDevice(privateKey: JsonWebKey, sealed: string, context: string): Promise<string> {
  const [version, ephemeral, iv, data] = sealed.split('.')
  if (version !== VERSION || !ephemeral || !iv || !data) throw new Error('This sealed value is not one this device can read.')
  const own = await subtle().importKey('jwk', privateKey, CURVE, false, ['deriveBits'])
  const ephemeralRaw = fromBase64Url(ephemeral)
  const key = await sealingKey(own, await subtle().importKey('raw', ephemeralRaw, CURVE, true, []), ephemeralRaw, 'decrypt')
  const opened = await subtle().decrypt(
    { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData: new TextEncoder().encode(context) },
    key,
    fromBase64Url(data),
  )
  return new TextDecoder().decode(opened)
}

/** What binds a vault value sealed for a run to that run, that device and that name. */
export const vaultSealContext = (run: { runId: string; deviceId: string; name: string }) =>
  `vault value:${run.runId}:${run.deviceId}:${run.name}`
