import { Forbidden } from './errors.ts'
import { z } from './zod.ts'

/** Who a person is in a workspace, most powerful first (docs/decisions/021). */
export const WORKSPACE_ROLES = ['owner', 'admin', 'member', 'viewer'] as const
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number]

/** The roles an invitation or a role change may give; ownership moves only by a transfer. */
export const INVITABLE_ROLES = ['admin', 'member', 'viewer'] as const
export type InvitableRole = (typeof INVITABLE_ROLES)[number]

export const WORKSPACE_ROLE_NAMES: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
}

/** What each role is for, as the team page explains it. */
export const WORKSPACE_ROLE_DESCRIPTIONS: Record<WorkspaceRole, string> = {
  owner: 'Billing, deleting the workspace and transferring ownership, and everything an admin does.',
  admin: 'Members, invitations and settings, and everything a member does; not billing.',
  member: 'Builds and runs automations, and keeps API keys.',
  viewer: 'Sees automations, runs and activity; changes nothing.',
}

const RANK: Record<WorkspaceRole, number> = { owner: 4, admin: 3, member: 2, viewer: 1 }

/** Whether a role includes everything `needed` may do. */
export const hasRole = (role: WorkspaceRole, needed: WorkspaceRole): boolean => RANK[role] >= RANK[needed]

/** The refusal (403) of someone whose role is below `needed`, naming what they tried ('Changing automations'); null when allowed. */
export function workspaceRoleRefusal(role: WorkspaceRole, needed: WorkspaceRole, doing: string): Forbidden | null {
  if (hasRole(role, needed)) return null
  return new Forbidden(
    `${doing} needs the ${WORKSPACE_ROLE_NAMES[needed]} role in this workspace; you are ${WORKSPACE_ROLE_NAMES[role].toLowerCase()}.`,
  )
}

/** Throws workspaceRoleRefusal's 403 unless the role includes `needed`: the one check routes, pages and services share. */
export function requireWorkspaceRole(role: WorkspaceRole, needed: WorkspaceRole, doing: string): void {
  const refused = workspaceRoleRefusal(role, needed, doing)
  if (refused) throw refused
}

/** The header an API client names its workspace with; without it, the session's current one (or the personal one). */
export const WORKSPACE_HEADER = 'X-Workspace-Id'
/** The cookie a browser session remembers its current workspace in. */
export const WORKSPACE_COOKIE = 'aether_workspace'

/** How long an invitation link works. */
export const INVITATION_TTL_DAYS = 7
/** The most workspaces one person may belong to, and the most pending invitations per workspace. */
export const MAX_WORKSPACES_PER_PERSON = 50
export const MAX_PENDING_INVITATIONS = 100

export const workspaceNameSchema = z
  .string({ error: 'Workspace name is required' })
  .trim()
  .min(2, 'Workspace name must be at least 2 characters.')
  .max(60, 'Workspace name must be at most 60 characters.')

export const workspaceCreateSchema = z.object({ name: workspaceNameSchema })
export type WorkspaceCreate = z.infer<typeof workspaceCreateSchema>

export const workspaceUpdateSchema = z
  .object({
    name: workspaceNameSchema.optional(),
    requireTwoFactor: z.boolean({ error: 'requireTwoFactor must be true or false' }).optional(),
  })
  .refine((value) => value.name !== undefined || value.requireTwoFactor !== undefined, {
    message: 'Nothing to update: send name or requireTwoFactor.',
  })
export type WorkspaceUpdate = z.infer<typeof workspaceUpdateSchema>

const invitableRoleSchema = z.enum(INVITABLE_ROLES, { error: 'Role must be admin, member or viewer.' })

export const invitationCreateSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(254, 'Email must be at most 254 characters.')
    .pipe(z.email('Please enter a valid email address.'))
    .transform((email) => email.toLowerCase()),
  role: invitableRoleSchema.default('member'),
})
export type InvitationCreate = z.infer<typeof invitationCreateSchema>

export const roleChangeSchema = z.object({ role: invitableRoleSchema })

export const ownershipTransferSchema = z.object({
  userId: z.string({ error: 'userId is required' }).trim().min(1, 'userId is required').max(100),
})
