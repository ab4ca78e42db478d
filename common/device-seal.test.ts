import { describe, expect, it } from 'vitest'
import { isDevicePublicKey, newDeviceKeys, openOnDevice, sealForDevice, vaultSealContext } from './device-seal.ts'

describe('values sealed to a device', () => {
  const context = vaultSealContext({ runId: 'run-1', deviceId: 'device-1', name: 'shop_password' })

  it('opens on the device it was sealed to, for the same context', async () => {
    const device = await newDeviceKeys()
    const sealed = await sealForDevice(device.publicKey, 'correct horse battery', context)
    expect(sealed).not.toContain('correct horse')
    expect(await openOnDevice(device.privateKey, sealed, context)).toBe('correct horse battery')
    // Each seal is fresh: the same value twice is never the same text.
    expect(await sealForDevice(device.publicKey, 'correct horse battery', context)).not.toBe(sealed)
  })

  it('does not open on another device, for another run or name, or once changed', async () => {
    const device = await newDeviceKeys()
    const other = await newDeviceKeys()
    const sealed = await sealForDevice(device.publicKey, 'correct horse battery', context)
    await expect(openOnDevice(other.privateKey, sealed, context)).rejects.toThrow()
    await expect(
      openOnDevice(device.privateKey, sealed, vaultSealContext({ runId: 'run-2', deviceId: 'device-1', name: 'shop_password' })),
    ).rejects.toThrow()
    await expect(
      openOnDevice(device.privateKey, sealed, vaultSealContext({ runId: 'run-1', deviceId: 'device-1', name: 'other' })),
    ).rejects.toThrow()
    const [version, ephemeral, iv, data = ''] = sealed.split('.')
    const flipped = `${data.slice(0, 5)}${data[5] === 'A' ? 'B' : 'A'}${data.slice(6)}`
    await expect(openOnDevice(device.privateKey, [version, ephemeral, iv, flipped].join('.'), context)).rejects.toThrow()
    await expect(openOnDevice(device.privateKey, 'v2.a.b.c', context)).rejects.toThrow('not one this device can read')
  })

  it('takes only an uncompressed P-256 point as a public key', async () => {
    const { publicKey } = await newDeviceKeys()
    expect(await isDevicePublicKey(publicKey)).toBe(true)
    expect(await isDevicePublicKey(undefined)).toBe(false)
    expect(await isDevicePublicKey('')).toBe(false)
    expect(await isDevicePublicKey(`${publicKey}A`)).toBe(false)
    // The right length, but not a point on the curve.
    expect(await isDevicePublicKey(`BA${'A'.repeat(85)}`)).toBe(false)
    await expect(sealForDevice('not a key', 'value', context)).rejects.toThrow()
  })
})
