import { setTimeout as sleep } from 'node:timers/promises'
import { newDeviceKeys } from '#common/device-seal.ts'
import { ApiError, type ApiClient } from './api-client.ts'

interface Pairing {
  pairingId: string
  userCode: string
  pollSecret: string
  verificationUrl: string
  expiresIn: number
  interval: number
}

export interface Paired {
  token: string
  device: { id: string; name: string; kind: string }
  workspace: { id: string; name: string }
  /** The private half of the key pair made for this pairing: vault values reach the runner sealed to it (docs/decisions/048). */
  privateKey: JsonWebKey
}

/**
 * Pairs this machine as a device (docs/decisions/031): asks the server for a code, shows the
 * member where to approve it (`show`), and waits for the approval, polling as often as the
 * server says. Throws when the code expires or the member denies it.
 */
export async function pairDevice(
  api: ApiClient,
  device: { name: string; version: string },
  show: (pairing: { userCode: string; verificationUrl: string; expiresIn: number }) => void,
  signal?: AbortSignal,
): Promise<Paired> {
  const keys = await newDeviceKeys()
  const pairing = await api.post<Pairing>('/api/devices/pairings', { name: device.name, kind: 'runner', version: device.version })
  show(pairing)
  const deadline = Date.now() + pairing.expiresIn * 1000
  while (Date.now() < deadline) {
    await sleep(pairing.interval * 1000, undefined, { signal })
    try {
      const collected = await api.post<Omit<Paired, 'privateKey'>>(`/api/devices/pairings/${pairing.pairingId}/token`, {
        pollSecret: pairing.pollSecret,
        publicKey: keys.publicKey,
      })
      return { ...collected, privateKey: keys.privateKey }
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'PAIRING_PENDING' || error.code === 'SLOW_DOWN')) continue
      if (error instanceof ApiError && error.code === 'PAIRING_DENIED') throw new Error('The connection was denied on the website.')
      if (error instanceof ApiError && error.code === 'PAIRING_EXPIRED') break
      throw error
    }
  }
  throw new Error('The code expired before it was approved. Run `pair` again.')
}
