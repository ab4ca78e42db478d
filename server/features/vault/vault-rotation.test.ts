import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vaultKeys, vaultSecrets } from '#server/db/schema/index.ts'
import { createServices } from '#server/services.ts'
import { createTestApp, TEST_AUTH_SECRET, testEnv, type TestApp } from '#server/testing/create-test-app.ts'
import { contexts, open, seal, wrappingKeyFrom } from './vault-crypto.ts'
import { createVaultService, vaultKeyring, VaultKeyMissing } from './vault.service.ts'

// Rotating VAULT_KEY (docs/decisions/025, README "Credential vault"): start with the new key as
// VAULT_KEY and the old one as VAULT_KEY_PREVIOUS, re-wrap (npm run vault:rotate), then drop the
// old key. Secrets themselves are never re-encrypted: only the per-workspace data keys are.

const OLD_KEY = 'old-vault-key-0123456789-abcdefghijklmnop'
const NEW_KEY = 'new-vault-key-0123456789-abcdefghijklmnop'

let t: TestApp
let account: Awaited<ReturnType<TestApp['signUp']>>

const vaultWith = (vaultKey: string, previousVaultKey?: string) =>
  createVaultService({
    db: t.db,
    audit: t.services.audit,
    plans: t.services.plans,
    keyring: vaultKeyring({ vaultKey, previousVaultKey, authSecret: TEST_AUTH_SECRET }),
    rateLimits: t.services.rateLimits,
  })

beforeAll(async () => {
  t = await createTestApp()
  account = await t.signUp()
})
afterAll(async () => {
  await t.close()
})

describe('vault key rotation', () => {
  it('re-wraps every data key under the new key; secrets open with it alone afterwards', async () => {
    const before = vaultWith(OLD_KEY)
    const caller = {
      id: account.id,
      email: account.email,
      emailVerified: true,
      role: 'user' as const,
      workspace: { id: account.id, role: 'owner' as const },
    }
    await before.create(caller, {
      name: 'shop_password',
      kind: 'password',
      value: 'rotate-me-please',
      origins: ['https://shop.example.com'],
      useRole: 'member',
    })
    const [sealedBefore] = await t.db.select().from(vaultSecrets).where(eq(vaultSecrets.workspaceId, account.id))

    // The new key alone cannot read what the old one wrapped, and says which setting is missing.
    await expect(vaultWith(NEW_KEY).valuesFor(account.id, ['shop_password'])).rejects.toThrow(VaultKeyMissing)

    // During the rotation both are configured: everything reads.
    const rotating = vaultWith(NEW_KEY, OLD_KEY)
    expect((await rotating.valuesFor(account.id, ['shop_password'])).get('shop_password')?.value).toBe('rotate-me-please')
    expect(await rotating.rewrapDataKeys()).toBe(1)
    expect(await rotating.rewrapDataKeys()).toBe(0)

    const [key] = await t.db.select().from(vaultKeys).where(eq(vaultKeys.workspaceId, account.id))
    expect(key?.keyFingerprint).toBe(wrappingKeyFrom(NEW_KEY).fingerprint)
    expect(key?.rotatedAt).toBeInstanceOf(Date)
    // The secret rows did not change; the new key alone opens them now, the old one no longer does.
    const [sealedAfter] = await t.db.select().from(vaultSecrets).where(eq(vaultSecrets.workspaceId, account.id))
    expect(sealedAfter?.sealedValue).toBe(sealedBefore?.sealedValue)
    expect((await vaultWith(NEW_KEY).valuesFor(account.id, ['shop_password'])).get('shop_password')?.value).toBe('rotate-me-please')
    await expect(vaultWith(OLD_KEY).valuesFor(account.id, ['shop_password'])).rejects.toThrow(VaultKeyMissing)
  })

  it('is what the services use: VAULT_KEY and VAULT_KEY_PREVIOUS from the environment', async () => {
    const services = createServices({
      database: t.database,
      env: { ...testEnv(), VAULT_KEY: NEW_KEY, VAULT_KEY_PREVIOUS: OLD_KEY },
      logger: pino({ level: 'silent' }),
      authSecret: TEST_AUTH_SECRET,
    })
    expect((await services.vault.valuesFor(account.id, ['shop_password'])).get('shop_password')?.value).toBe('rotate-me-please')
    expect(await services.vault.rewrapDataKeys()).toBe(0)
  })
})

describe('sealing', () => {
  const key = wrappingKeyFrom('some-vault-key-0123456789-abcdefghijk').key

  it('opens only with the same key and the same place it was bound to, and never when altered', () => {
    const sealed = seal(key, 'hunter2-value', contexts.secret('ws-1', 'secret-1'))
    expect(open(key, sealed, contexts.secret('ws-1', 'secret-1')).toString()).toBe('hunter2-value')
    // Copied to another row or workspace: refused.
    expect(() => open(key, sealed, contexts.secret('ws-2', 'secret-1'))).toThrow()
    expect(() => open(key, sealed, contexts.secret('ws-1', 'secret-2'))).toThrow()
    expect(() => open(wrappingKeyFrom('another-vault-key-0123456789-abcdefg').key, sealed, contexts.secret('ws-1', 'secret-1'))).toThrow()
    const bytes = Buffer.from(sealed.slice(3), 'base64url')
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1
    expect(() => open(key, `v1.${bytes.toString('base64url')}`, contexts.secret('ws-1', 'secret-1'))).toThrow()
    // A fresh IV each time: the same value never seals the same way twice.
    expect(seal(key, 'hunter2-value', 'x')).not.toBe(seal(key, 'hunter2-value', 'x'))
  })

  it('derives the default vault key from the auth secret, and a different one from another secret', () => {
    const a = vaultKeyring({ authSecret: TEST_AUTH_SECRET }).current.fingerprint
    expect(vaultKeyring({ authSecret: TEST_AUTH_SECRET }).current.fingerprint).toBe(a)
    expect(vaultKeyring({ authSecret: `${TEST_AUTH_SECRET}-other` }).current.fingerprint).not.toBe(a)
    expect(vaultKeyring({ vaultKey: NEW_KEY, authSecret: TEST_AUTH_SECRET }).current.fingerprint).toBe(wrappingKeyFrom(NEW_KEY).fingerprint)
  })
})
