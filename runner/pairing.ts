import { PairingEndedError, startPairing, waitForApproval, type AetherClient, type PairedDevice } from '#sdk'
import { newDeviceKeys } from '#common/device-seal.ts'

export type Paired = PairedDevice & {
  /** The private half of the key pair made for this pairing: vault values reach the runner sealed to it (docs/decisions/048). */
  privateKey: JsonWebKey
}

/**
 * Pairs this machine as a device (docs/decisions/031): asks the server for a code, shows the
 * member where to approve it (`show`), and waits for the approval with the SDK's pairing loop.
 * Throws when the code expires or the member denies it.
 */
export async function pairDevice(
  aether: AetherClient,
  device: { name: string; version: string },
  show: (pairing: { userCode: string; verificationUrl: string; expiresIn: number }) => void,
  signal?: AbortSignal,
  /** A server away meanwhile, said once while it lasts; null when it answers again. */
  onTrouble?: (trouble: Error | null) => void,
): Promise<Paired> {
  const keys = await newDeviceKeys()
  const pairing = await startPairing(aether, { name: device.name, kind: 'runner', version: device.version })
  show(pairing)
  try {
    const paired = await waitForApproval(
      aether,
      { ...pairing, expiresAt: Date.now() + pairing.expiresIn * 1000 },
      { publicKey: keys.publicKey, signal, onTrouble },
    )
    return { ...paired, privateKey: keys.privateKey }
  } catch (error) {
    if (error instanceof PairingEndedError && error.reason === 'expired') {
      const away = error.trouble ? ` The server could not be asked at the end: ${error.trouble.message}` : ''
      throw new Error(`The code expired before it was approved. Run \`pair\` again.${away}`)
    }
    if (error instanceof PairingEndedError) throw new Error('The connection was denied on the website.')
    throw error
  }
}
