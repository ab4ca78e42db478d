import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * AUTH_SECRET when configured (env.ts requires it in production on PostgreSQL). Otherwise a
 * random secret is made once and kept in the data folder, so sessions survive restarts and no
 * secret is ever a fixed default.
 */
export function resolveAuthSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured
  const file = path.resolve(dataDir, 'auth-secret')
  try {
    const existing = readFileSync(file, 'utf8').trim()
    if (existing.length >= 32) return existing
  } catch {
    // not created yet
  }
  const secret = randomBytes(32).toString('base64url')
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}
