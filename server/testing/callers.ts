import type { Caller, Role } from '#common/auth.ts'

/**
 * A test account as the services see it in its personal workspace, whose id is the account's and
 * where it is the owner (docs/decisions/021). The e-mail defaults to one made from the id; the
 * address counts as verified (as createTestApp's signUp makes it) unless the account says not.
 */
export function personalCaller(account: { id: string; email?: string; emailVerified?: boolean }, role: Role = 'user'): Caller {
  return {
    id: account.id,
    email: account.email ?? `${account.id}@example.com`,
    emailVerified: account.emailVerified ?? true,
    role,
    workspace: { id: account.id, role: 'owner' },
  }
}
