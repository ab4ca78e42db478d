import type { PgTable } from 'drizzle-orm/pg-core'
import { subscriptionPlans, workspaceMembers, workspaces } from './schema/index.ts'

/**
 * A person's access to a workspace (WorkspaceAccess: what it is, their role, its plan and
 * balance): select them from `workspace_members` joined with `workspaces`, or with an alias of it
 * when the query joins it twice, and `subscription_plans`.
 */
export function workspaceAccessColumns(table: PgTable = workspaces) {
  // An alias has the workspaces' columns under its own name; the rows read are the same.
  const workspace = table as typeof workspaces
  return {
    id: workspace.id,
    name: workspace.name,
    kind: workspace.kind,
    role: workspaceMembers.role,
    planSlug: workspace.planSlug,
    planName: subscriptionPlans.name,
    credits: workspace.credits,
    requireTwoFactor: workspace.requireTwoFactor,
  }
}
