import { newDeviceKeys } from '#common/device-seal.ts'
import { z } from '#common/zod.ts'
import type { Connection, PendingPairing } from '../storage/stored-items.ts'
import { ApiError, callApi, DeviceDisconnectedError } from './api-client.ts'

// Device pairing (issue 17): the extension asks for a code, the member approves it on the website
// while signed in, and the extension receives a device credential it sends as a bearer token.

const startedSchema = z.object({
  data: z.object({
    pairingId: z.string().min(1),
    userCode: z.string().min(1),
    pollSecret: z.string().min(1),
    verificationUrl: z.string().regex(/^https?:\/\//),
    expiresIn: z.number().positive(),
    interval: z.number().positive(),
  }),
})

const approvedSchema = z.object({
  data: z.object({
    token: z.string().min(1),
    device: z.object({ id: z.string(), name: z.string() }),
    workspace: z.object({ id: z.string(), name: z.string() }),
  }),
})

/** Asks the server for a pairing code for this browser. */
export async function startPairing(
  serverUrl: string,
  device: { name: string; version: string },
  now = Date.now(),
): Promise<PendingPairing> {
  const { data } = await callApi({ serverUrl }, '/api/devices/pairings', startedSchema, {
    method: 'POST',
    body: { name: device.name, kind: 'extension', version: device.version },
  })
  const started = data.data
  return {
    keys: await newDeviceKeys(),
    serverUrl,
    pairingId: started.pairingId,
    userCode: started.userCode,
    pollSecret: started.pollSecret,
    verificationUrl: started.verificationUrl,
    expiresAt: now + started.expiresIn * 1000,
    intervalMs: started.interval * 1000,
  }
}

export type PairingState =
  /** Not approved yet; `slowDown`: the server asks to be asked less often (as OAuth's device flow does). */
  { state: 'pending'; slowDown?: true } | { state: 'expired' } | { state: 'denied' } | { state: 'approved'; connection: Connection }

/** Asks once whether the member approved the pairing; the credential comes with the first 'approved'. */
export async function pollPairing(pairing: PendingPairing): Promise<PairingState> {
  try {
    const { data } = await callApi(
      { serverUrl: pairing.serverUrl },
      `/api/devices/pairings/${encodeURIComponent(pairing.pairingId)}/token`,
      approvedSchema,
      { method: 'POST', body: { pollSecret: pairing.pollSecret, ...(pairing.keys ? { publicKey: pairing.keys.publicKey } : {}) } },
    )
    const privateKey = pairing.keys?.privateKey
    return { state: 'approved', connection: { serverUrl: pairing.serverUrl, ...data.data, ...(privateKey ? { privateKey } : {}) } }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    if (error.status === 400 && error.code === 'PAIRING_PENDING') return { state: 'pending' }
    if (error.code === 'SLOW_DOWN') return { state: 'pending', slowDown: true }
    if (error.status === 410 && error.code === 'PAIRING_DENIED') return { state: 'denied' }
    if (error.status === 410) return { state: 'expired' }
    throw error
  }
}

/**
 * "Disconnect this browser": the device revokes itself on the server, so its slot is free at once.
 * Answers what to tell the member; the connection is forgotten here whatever the server said.
 */
export async function disconnectDevice(connection: Connection): Promise<string> {
  try {
    await callApi(connection, '/api/devices/me', z.unknown(), { method: 'DELETE' })
    return `Disconnected: “${connection.device.name}” is removed from your devices on ${connection.serverUrl}.`
  } catch (error) {
    if (error instanceof DeviceDisconnectedError) return 'Disconnected: the server had disconnected this browser already.'
    const why = error instanceof Error ? error.message : String(error)
    return `Disconnected here, but the server was not told (${why}) Remove “${connection.device.name}” in Settings -> Devices on the website to free its place.`
  }
}
