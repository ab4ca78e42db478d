import { hash } from '@node-rs/argon2'
import { describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from './password-hashing.ts'

describe('password hashing', () => {
  it("uses argon2id at one of OWASP's equivalent minimums (7 MiB, 5 iterations, 1 lane)", async () => {
    const hash = await hashPassword('correct-horse-battery')
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$[A-Za-z0-9+/]{16,}\$[A-Za-z0-9+/]{32,}$/)
  })

  it('still verifies hashes made with the earlier parameters (19 MiB, 2 iterations), which they carry', async () => {
    const earlier = await hash('made-before-054', { memoryCost: 19_456, timeCost: 2, parallelism: 1 })
    expect(earlier).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword({ hash: earlier, password: 'made-before-054' })).toBe(true)
    expect(await verifyPassword({ hash: earlier, password: 'made-before-055' })).toBe(false)
  })

  it('salts every hash', async () => {
    expect(await hashPassword('same-password')).not.toBe(await hashPassword('same-password'))
  })

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('pässwörd-ünïcode-🔑')
    expect(await verifyPassword({ hash, password: 'pässwörd-ünïcode-🔑' })).toBe(true)
    expect(await verifyPassword({ hash, password: 'passwort-unicode-🔑' })).toBe(false)
    expect(await verifyPassword({ hash, password: '' })).toBe(false)
  })

  it('treats a malformed stored hash as a failed verification, not a crash', async () => {
    await expect(verifyPassword({ hash: 'not-a-hash', password: 'x' })).resolves.toBe(false)
    await expect(verifyPassword({ hash: '', password: 'x' })).resolves.toBe(false)
    await expect(verifyPassword({ hash: 'a1b2c3:deadbeef', password: 'x' })).resolves.toBe(false)
  })
})
