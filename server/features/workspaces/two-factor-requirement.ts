import { eq } from 'drizzle-orm'
import { Conflict } from '#common/errors.ts'
import { requireWorkspaceRole, type WorkspaceRole } from '#common/workspaces.ts'
import type { DbOrTx } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'

/**
 * Requiring two-factor sign-in of a workspace's members (docs/decisions/023) is an owner's choice
 * for a team, and only an owner who has it on may make it: nobody sets a rule they do not meet.
 * Members without it are then refused in the workspace (server/http/access.ts, app/lib/guards.server.ts).
 */
export async function assertMayRequireTwoFactor(
  tx: DbOrTx,
  userId: string,
  workspace: { kind: 'personal' | 'team'; role: WorkspaceRole },
): Promise<void> {
  if (workspace.kind === 'personal') throw new Conflict('Two-factor sign-in can be required in team workspaces only.')
  requireWorkspaceRole(workspace.role, 'owner', 'Requiring two-factor sign-in')
  const [person] = await tx.select({ twoFactorEnabled: users.twoFactorEnabled }).from(users).where(eq(users.id, userId))
  if (!person?.twoFactorEnabled) {
    throw new Conflict('Turn on two-factor sign-in for your own account (Settings) before requiring it of the workspace.')
  }
}
