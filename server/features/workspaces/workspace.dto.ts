// The workspace API's response shapes (OpenAPI schemas) and the mapping from service records.
import { z } from '@hono/zod-openapi'
import { INVITABLE_ROLES, WORKSPACE_ROLES } from '#common/workspaces.ts'
import type { PendingInvitation } from './invitation.service.ts'
import type { WorkspaceAccess } from './workspace.service.ts'

export const workspaceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['personal', 'team']),
    role: z.enum(WORKSPACE_ROLES),
    plan: z.string(),
    planName: z.string(),
    credits: z.number().int(),
    requireTwoFactor: z.boolean(),
  })
  .openapi('Workspace')

export const memberSchema = z
  .object({ userId: z.string(), email: z.string(), name: z.string(), role: z.enum(WORKSPACE_ROLES), joinedAt: z.string() })
  .openapi('WorkspaceMember')

export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.enum(INVITABLE_ROLES),
    invitedBy: z.string().nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .openapi('WorkspaceInvitation')

export const activitySchema = z
  .object({
    id: z.string(),
    actor: z.object({ id: z.string().nullable(), email: z.string() }),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    summary: z.string(),
    createdAt: z.string(),
  })
  .openapi('WorkspaceActivity')

export const toWorkspaceDto = (access: WorkspaceAccess): z.infer<typeof workspaceSchema> => ({
  id: access.id,
  name: access.name,
  kind: access.kind,
  role: access.role,
  plan: access.planSlug,
  planName: access.planName,
  credits: access.credits,
  requireTwoFactor: access.requireTwoFactor,
})

export const toInvitationDto = (invitation: PendingInvitation): z.infer<typeof invitationSchema> => ({
  ...invitation,
  expiresAt: invitation.expiresAt.toISOString(),
  createdAt: invitation.createdAt.toISOString(),
})
