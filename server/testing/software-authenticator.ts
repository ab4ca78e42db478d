import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'

// A WebAuthn authenticator in software, for API tests (the browser's side of a passkey): it makes a
// P-256 key, answers creation options with a "none" attestation and request options with an
// ES256 assertion, exactly as a platform authenticator would encode them. The e2e suite uses
// Chromium's virtual authenticator instead.

const b64url = (bytes: Uint8Array | Buffer | string) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

/** The little CBOR a credential needs: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length])
    if (length < 256) return Buffer.from([(major << 5) | 24, length])
    const out = Buffer.alloc(3)
    out[0] = (major << 5) | 25
    out.writeUInt16BE(length, 1)
    return out
  }
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)])
  if (value instanceof Map) {
    const entries = [...(value as Map<unknown, unknown>).entries()]
    return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])])
  }
  throw new Error(`cannot encode ${typeof value} as CBOR`)
}

interface Credential {
  id: Buffer
  privateKey: KeyObject
  userHandle: string
  counter: number
}

export function createSoftwareAuthenticator(options: { origin: string }) {
  const credentials: Credential[] = []
  const flags = (userVerified: boolean, attested: boolean) => 0x01 | (userVerified ? 0x04 : 0) | (attested ? 0x40 : 0)
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: options.origin, crossOrigin: false }))

  return {
    /** The answer to navigator.credentials.create(options). */
    create(creation: Record<string, unknown>, { userVerified = true } = {}) {
      const rp = creation.rp as { id: string }
      const user = creation.user as { id: string }
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      const jwk = publicKey.export({ format: 'jwk' })
      const coseKey = new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ])
      const id = randomBytes(32)
      const length = Buffer.alloc(2)
      length.writeUInt16BE(id.length)
      const authData = Buffer.concat([
        sha256(rp.id),
        Buffer.from([flags(userVerified, true)]),
        Buffer.alloc(4),
        Buffer.alloc(16),
        length,
        id,
        cbor(coseKey),
      ])
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      )
      credentials.push({ id, privateKey, userHandle: user.id, counter: 0 })
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', creation.challenge as string)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      }
    },

    /** The answer to navigator.credentials.get(options), with the newest credential (or the one named). */
    get(request: Record<string, unknown>, { userVerified = true, credentialId }: { userVerified?: boolean; credentialId?: string } = {}) {
      const credential = credentialId ? credentials.find((item) => b64url(item.id) === credentialId) : credentials.at(-1)
      if (!credential) throw new Error('the software authenticator has no credential')
      credential.counter += 1
      const counter = Buffer.alloc(4)
      counter.writeUInt32BE(credential.counter)
      const authenticatorData = Buffer.concat([sha256(request.rpId as string), Buffer.from([flags(userVerified, false)]), counter])
      const clientDataJSON = clientData('webauthn.get', request.challenge as string)
      const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey)
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authenticatorData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
      }
    },
  }
}
