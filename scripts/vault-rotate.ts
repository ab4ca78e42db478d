// Re-wraps every workspace's vault data key under VAULT_KEY, reading the old ones with
// VAULT_KEY_PREVIOUS (docs/decisions/025, README "Credential vault"). Run with the same
// environment as the server: `VAULT_KEY=new VAULT_KEY_PREVIOUS=old npm run vault:rotate`.
// On the embedded database (no DATABASE_URL) stop the server first: PGlite belongs to one process.
// A server started with VAULT_KEY_PREVIOUS does the same at start-up.
import path from 'node:path'
import { resolveAuthSecret } from '../server/auth-secret.ts'
import { openDatabase } from '../server/db/client.ts'
import { loadEnv } from '../server/env.ts'
import { createAuditService } from '../server/features/audit/audit.service.ts'
import { createPlanService } from '../server/features/plans/plan.service.ts'
import { createRateLimitService } from '../server/features/rate-limit/rate-limit.service.ts'
import { createVaultService, vaultKeyring } from '../server/features/vault/vault.service.ts'
import { createLogger } from '../server/logger.ts'

const env = loadEnv()
if (!env.VAULT_KEY_PREVIOUS) {
  console.error('Set VAULT_KEY to the new key and VAULT_KEY_PREVIOUS to the one it replaces.')
  process.exit(1)
}
const logger = createLogger(env)
const database = await openDatabase(
  env.DATABASE_URL
    ? { kind: 'postgres', url: env.DATABASE_URL, poolMax: 2, logger }
    : { kind: 'pglite', dataDir: path.join(env.DATA_DIR, 'pglite') },
)
try {
  const audit = createAuditService(database.db)
  const vault = createVaultService({
    db: database.db,
    audit,
    plans: createPlanService(database.db, audit),
    keyring: vaultKeyring({
      vaultKey: env.VAULT_KEY,
      previousVaultKey: env.VAULT_KEY_PREVIOUS,
      authSecret: resolveAuthSecret(env.AUTH_SECRET, env.DATA_DIR),
    }),
    rateLimits: createRateLimitService(database.db),
  })
  const rewrapped = await vault.rewrapDataKeys()
  console.log(
    `Re-wrapped ${rewrapped} workspace data key${rewrapped === 1 ? '' : 's'} under VAULT_KEY. VAULT_KEY_PREVIOUS can be removed now.`,
  )
} finally {
  await database.close()
}
