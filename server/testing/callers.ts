import type { Caller, Role } from '#common/auth.ts'

/**
 * A test account as the services see it in its personal workspace, whose id is the account's and
 * where it is the owner (docs/decisions/021). The e-mail defaults to one made from the id.
 */
export function personalCaller(account: { id: string; email?: string }, role: Role = 'user'): Caller {
  return { id: account.id, email: account.email ?? `${account.id}@example.com`, role, workspace: { id: account.id, role: 'owner' } }
}
