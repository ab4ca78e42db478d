import { and, eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { accounts } from '#server/db/schema/index.ts'
import { verifyPassword } from '#server/password-hashing.ts'

/**
 * Whether this is the account's password: a signed-in person proves it is them before changing how
 * they sign in (docs/decisions/023). An account without a password (Google only) has none to give.
 */
export async function verifyAccountPassword(db: Db, userId: string, password: string): Promise<boolean> {
  const [account] = await db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
  return account?.hash ? verifyPassword({ hash: account.hash, password }) : false
}
