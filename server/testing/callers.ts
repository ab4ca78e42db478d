import type { Caller, Role } from '#common/auth.ts'

/** A test account as the services see it in its personal workspace (its owner; docs/decisions/021). */
export function personalCaller(account: { id: string; email?: string }, role: Role = 'user'): Caller {
  return { id: account.id, email: account.email ?? `${account.id}@example.com`, role, workspace: { id: account.id, role: 'owner' } }
}
