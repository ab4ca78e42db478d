import { hash, verify } from '@node-rs/argon2'

// OWASP's minimum for argon2id: 19 MiB of memory, 2 iterations, 1 lane.
// @node-rs/argon2 defaults to argon2id; the parameters are written out so the choice is visible.
const ARGON2ID_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OPTIONS)
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  try {
    return await verify(stored, password)
  } catch {
    // A malformed stored hash is a failed verification, never a crash.
    return false
  }
}
