import { Secret, TOTP } from 'otpauth'
import { describe, expect, it } from 'vitest'
import { totpCode } from './totp-code.ts'

describe('totpCode', () => {
  it('gives the RFC 6238 test vectors (SHA-1, 8 digits)', async () => {
    // RFC 6238 appendix B: the ASCII key "12345678901234567890".
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'
    expect(await totpCode(secret, 59_000, { digits: 8 })).toBe('94287082')
    expect(await totpCode(secret, 1_111_111_109_000, { digits: 8 })).toBe('07081804')
    expect(await totpCode(secret, 1_234_567_890_000, { digits: 8 })).toBe('89005924')
    expect(await totpCode(secret, 20_000_000_000_000, { digits: 8 })).toBe('65353130')
  })

  it('agrees with an authenticator library on ordinary 6-digit, 30-second codes', async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    const reference = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 })
    for (const at of [0, 1_700_000_000_000, Date.now()]) expect(await totpCode(secret, at)).toBe(reference.generate({ timestamp: at }))
  })
})
