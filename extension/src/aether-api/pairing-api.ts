import { startPairing as askForCode, TokenRefusedError, waitForApproval, type ApiError } from '#sdk'
import { newDeviceKeys } from '#common/device-seal.ts'
import type { Connection, PendingPairing } from '../storage/stored-items.ts'
import { clientOf } from './api-client.ts'

// Device pairing (issue 17): the extension asks for a code, the member approves it on the website
// while signed in, and the extension receives a device credential it sends as a bearer token. The
// asking is the SDK's pairing loop (sidepanel/use-pairing.ts).

/** Asks the server for a pairing code for this browser, with a new key pair for vault values. */
export async function startPairing(
  serverUrl: string,
  device: { name: string; version: string },
  now = Date.now(),
): Promise<PendingPairing> {
  const started = await askForCode(clientOf({ serverUrl }), { name: device.name, kind: 'extension', version: device.version })
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

/**
 * Waits, with the SDK's pairing loop, until the member approves this browser, and answers its
 * connection: the credential, and the private key vault values are sealed to. Throws
 * PairingEndedError when the code expires or is declined; `onTrouble` hears of a server away.
 */
export async function connectionWhenApproved(
  pairing: PendingPairing,
  options: { signal?: AbortSignal; onTrouble?: (trouble: ApiError | null) => void } = {},
): Promise<Connection> {
  const paired = await waitForApproval(
    clientOf(pairing),
    { pairingId: pairing.pairingId, pollSecret: pairing.pollSecret, interval: pairing.intervalMs / 1000, expiresAt: pairing.expiresAt },
    { ...options, publicKey: pairing.keys?.publicKey },
  )
  const privateKey = pairing.keys?.privateKey
  return { serverUrl: pairing.serverUrl, ...paired, ...(privateKey ? { privateKey } : {}) }
}

/**
 * "Disconnect this browser": the device revokes itself on the server, so its slot is free at once.
 * Answers what to tell the member; the connection is forgotten here whatever the server said.
 */
export async function disconnectDevice(connection: Connection): Promise<string> {
  try {
    await clientOf(connection).DELETE('/devices/me')
    return `Disconnected: “${connection.device.name}” is removed from your devices on ${connection.serverUrl}.`
  } catch (error) {
    if (error instanceof TokenRefusedError) return 'Disconnected: the server had disconnected this browser already.'
    const why = error instanceof Error ? error.message : String(error)
    return `Disconnected here, but the server was not told (${why}) Remove “${connection.device.name}” in Settings -> Devices on the website to free its place.`
  }
}
