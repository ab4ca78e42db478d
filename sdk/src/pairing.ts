import { dataOf, type AetherClient } from './client.ts'
import { ApiError } from './errors.ts'
import type { components } from './schema.ts'

// Connecting a device (docs/decisions/031): the device asks for a code, its member approves it on
// the website while signed in, and the device collects its token with the poll secret.

export type Pairing = components['schemas']['DevicePairing']
export type PairedDevice = components['schemas']['DeviceToken']

/** Asks the site for a pairing code for this device. The answer is checked: the page to approve it on is a web page, the times are times. */
export async function startPairing(
  aether: AetherClient,
  device: { name: string; kind: 'extension' | 'runner'; version: string },
): Promise<Pairing> {
  const pairing = await dataOf(aether.POST('/devices/pairings', { body: device }))
  const understood =
    [pairing.pairingId, pairing.pollSecret, pairing.userCode].every((text) => typeof text === 'string' && text !== '') &&
    typeof pairing.verificationUrl === 'string' &&
    /^https?:\/\//i.test(pairing.verificationUrl) &&
    pairing.interval > 0 &&
    pairing.expiresIn > 0
  if (!understood) throw unexpected('a pairing')
  return pairing
}

const unexpected = (what: string) => new ApiError(200, 'UNEXPECTED_ANSWER', `The server answered ${what} this client does not understand.`)

export type PairingAnswer =
  /** Not approved yet; `slowDown`: the server asks to be asked less often (as OAuth's device flow does). */
  { state: 'pending'; slowDown?: true } | { state: 'expired' } | { state: 'denied' } | { state: 'approved'; paired: PairedDevice }

/**
 * Asks once whether the member approved the pairing. The token comes with the first 'approved';
 * `publicKey` is the public half of the device's key pair, which vault values are sealed to.
 */
export async function pollPairing(
  aether: AetherClient,
  pairing: Pick<Pairing, 'pairingId' | 'pollSecret'>,
  options: { publicKey?: string; signal?: AbortSignal } = {},
): Promise<PairingAnswer> {
  try {
    const paired = await dataOf(
      aether.POST('/devices/pairings/{pairingId}/token', {
        params: { path: { pairingId: pairing.pairingId } },
        body: { pollSecret: pairing.pollSecret, ...(options.publicKey ? { publicKey: options.publicKey } : {}) },
        signal: options.signal,
      }),
    )
    if (typeof paired.token !== 'string' || !paired.token || !paired.device?.id || !paired.workspace?.id) throw unexpected('a device token')
    return { state: 'approved', paired }
  } catch (error) {
    if (!(error instanceof ApiError) || error.code === 'UNEXPECTED_ANSWER') throw error
    if (error.code === 'PAIRING_PENDING') return { state: 'pending' }
    if (error.code === 'SLOW_DOWN') return { state: 'pending', slowDown: true }
    if (error.code === 'PAIRING_DENIED') return { state: 'denied' }
    if (error.status === 410) return { state: 'expired' }
    throw error
  }
}

/** The pairing ended without a token: its code expired, or the member declined it. */
export class PairingEndedError extends Error {
  constructor(
    readonly reason: 'expired' | 'denied',
    /** What kept the server from being asked, when the code ran out while it could not be. */
    readonly trouble: ApiError | null = null,
  ) {
    super(reason === 'expired' ? 'The code expired before it was approved.' : 'The connection was declined on the website.')
    this.name = 'PairingEndedError'
  }
}

/** Seconds added between questions each time the server asks to be asked less often. */
const SLOWER_BY_SECONDS = 5

/**
 * The one pairing loop: asks every `interval` seconds (slower when the server says so) until the
 * member approves, and answers the device's token. Throws PairingEndedError when the code expires
 * (at `expiresAt`, ms) or is declined. A passing trouble (no answer, a server error, the rate
 * limit) is told to `onTrouble` and asked again; any other refusal is thrown. `signal` stops it.
 */
export async function waitForApproval(
  aether: AetherClient,
  pairing: Pick<Pairing, 'pairingId' | 'pollSecret' | 'interval'> & { expiresAt: number },
  options: { publicKey?: string; signal?: AbortSignal; onTrouble?: (trouble: ApiError | null) => void } = {},
): Promise<PairedDevice> {
  let interval = pairing.interval
  let trouble: ApiError | null = null
  while (Date.now() < pairing.expiresAt) {
    await sleep(Math.min(interval * 1000, Math.max(0, pairing.expiresAt - Date.now())), options.signal)
    let answer: PairingAnswer
    try {
      answer = await pollPairing(aether, pairing, options)
    } catch (error) {
      if (!(error instanceof ApiError) || !isPassing(error)) throw error
      trouble = error
      options.onTrouble?.(error)
      continue
    }
    trouble = null
    // Stopped while the question was out: its answer is no one's now (a cancelled pairing stays cancelled).
    options.signal?.throwIfAborted()
    options.onTrouble?.(null)
    if (answer.state === 'approved') return answer.paired
    if (answer.state !== 'pending') throw new PairingEndedError(answer.state)
    if (answer.slowDown) interval += SLOWER_BY_SECONDS
  }
  throw new PairingEndedError('expired', trouble)
}

/** A refusal that asking again later may get past: no answer, a server error, the API's rate limit. */
const isPassing = (error: ApiError) => error.status === 0 || error.status === 429 || error.status >= 500

/** Waits `ms`, or rejects with the signal's reason once it is aborted. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop)
      resolve()
    }, ms)
    const stop = () => {
      clearTimeout(timer)
      reject(signal?.reason as Error)
    }
    signal?.addEventListener('abort', stop, { once: true })
  })
}
