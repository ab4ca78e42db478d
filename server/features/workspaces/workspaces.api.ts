import { z } from '@hono/zod-openapi'
import type { VerifiablePerson } from '#common/email-verification.ts'
import { paginationQuerySchema } from '#common/pagination.ts'
import {
  invitationCreateSchema,
  ownershipTransferSchema,
  roleChangeSchema,
  WORKSPACE_HEADER,
  workspaceCreateSchema,
  workspaceUpdateSchema,
} from '#common/workspaces.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import { member, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody, pageResponse } from '#server/http/openapi.ts'
import type { InvitationService } from './invitation.service.ts'
import { activitySchema, invitationSchema, memberSchema, toInvitationDto, toWorkspaceDto, workspaceSchema } from './workspace.dto.ts'
import type { WorkspaceAccess, WorkspaceActor, WorkspaceService } from './workspace.service.ts'

const tags = ['Workspaces']
const CURRENT = `"current" is the workspace the request works in: the ${WORKSPACE_HEADER} header's, an API key's own, or the session's chosen one (else the personal workspace).`

const one = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ data: schema }) } },
})
const done = { description: 'Done', content: { 'application/json': { schema: z.object({ data: z.object({ ok: z.literal(true) }) }) } } }
const userParam = z.object({ userId: z.string().min(1).max(100) })

/** The person acting in the request's workspace (the route's access rule made sure there is one). */
const actorOf = (user: SessionUser): WorkspaceActor & VerifiablePerson => ({
  id: user.id,
  email: user.email,
  emailVerified: user.emailVerified,
  workspace: user.workspace as WorkspaceAccess,
})

const list = signedInRoute(member('never'), {
  method: 'get',
  path: '/',
  tags,
  summary: 'The workspaces you are in: your personal one first, then teams',
  responses: { 200: one(z.array(workspaceSchema.extend({ memberCount: z.number().int() })), 'Your workspaces') },
})

const create = signedInRoute(member('never'), {
  method: 'post',
  path: '/',
  tags,
  summary: 'Create a team workspace (your plan must include team workspaces); you are its owner',
  request: { body: jsonBody(workspaceCreateSchema) },
  responses: { 201: one(workspaceSchema, 'The new workspace'), ...errorResponses(400, 409) },
})

const current = signedInRoute(member('any', 'viewer'), {
  method: 'get',
  path: '/current',
  tags,
  summary: 'The workspace this request works in, with your role, its plan and its credits',
  description: CURRENT,
  responses: { 200: one(workspaceSchema, 'The workspace') },
})

const update = signedInRoute(member('never', 'admin'), {
  method: 'patch',
  path: '/current',
  tags,
  summary: 'Rename the workspace (owners and admins), or require two-factor sign-in of its members (owners who have it on)',
  description: CURRENT,
  request: { body: jsonBody(workspaceUpdateSchema) },
  responses: { 200: one(workspaceSchema, 'The workspace'), ...errorResponses(400, 409) },
})

const remove = signedInRoute(member('never', 'owner'), {
  method: 'delete',
  path: '/current',
  tags,
  summary: 'Delete a team workspace and everything in it (owners; not while it has a subscription)',
  description: CURRENT,
  responses: { 200: done, ...errorResponses(409) },
})

const members = signedInRoute(member('any', 'viewer'), {
  method: 'get',
  path: '/current/members',
  tags,
  summary: 'Who is in the workspace, and as what',
  description: CURRENT,
  responses: { 200: one(z.array(memberSchema), 'The members') },
})

const changeRole = signedInRoute(member('never', 'admin'), {
  method: 'patch',
  path: '/current/members/{userId}',
  tags,
  summary: "Change someone's role (admins change members and viewers; owners change admins too)",
  description: CURRENT,
  request: { params: userParam, body: jsonBody(roleChangeSchema) },
  responses: { 200: done, ...errorResponses(400, 404, 409) },
})

const removeMember = signedInRoute(member('never', 'admin'), {
  method: 'delete',
  path: '/current/members/{userId}',
  tags,
  summary: 'Remove someone from the workspace; what they built stays, their keys for it stop working',
  description: CURRENT,
  request: { params: userParam },
  responses: { 200: done, ...errorResponses(404, 409) },
})

const leave = signedInRoute(member('never', 'viewer'), {
  method: 'post',
  path: '/current/leave',
  tags,
  summary: 'Leave the workspace (the last owner cannot)',
  description: CURRENT,
  responses: { 200: done, ...errorResponses(409) },
})

const transfer = signedInRoute(member('never', 'owner'), {
  method: 'post',
  path: '/current/transfer',
  tags,
  summary: 'Make another member the owner; you stay as an admin',
  description: CURRENT,
  request: { body: jsonBody(ownershipTransferSchema) },
  responses: { 200: done, ...errorResponses(400, 404, 409) },
})

const pendingInvitations = signedInRoute(member('never', 'admin'), {
  method: 'get',
  path: '/current/invitations',
  tags,
  summary: 'Pending invitations (owners and admins)',
  description: CURRENT,
  responses: { 200: one(z.array(invitationSchema), 'Pending invitations') },
})

const invite = signedInRoute(member('never', 'admin'), {
  method: 'post',
  path: '/current/invitations',
  tags,
  summary: 'Invite someone by e-mail: a link that works once, for 7 days (a pending invitation takes a seat)',
  description: CURRENT,
  request: { body: jsonBody(invitationCreateSchema) },
  responses: { 201: one(invitationSchema, 'The invitation (its link is only in the e-mail)'), ...errorResponses(400, 409) },
})

const revokeInvitation = signedInRoute(member('never', 'admin'), {
  method: 'delete',
  path: '/current/invitations/{id}',
  tags,
  summary: 'Withdraw a pending invitation',
  description: CURRENT,
  request: { params: z.object({ id: z.uuid({ error: 'Invitation not found' }) }) },
  responses: { 200: done, ...errorResponses(404) },
})

const activity = signedInRoute(member('any', 'viewer'), {
  method: 'get',
  path: '/current/activity',
  tags,
  summary: 'What happened in the workspace, newest first: automations changed and run, people invited and removed, keys, billing',
  description: CURRENT,
  request: { query: paginationQuerySchema },
  responses: { 200: pageResponse(activitySchema, 'A page of activity'), ...errorResponses(400) },
})

const accept = signedInRoute(member('never'), {
  method: 'post',
  path: '/invitations/accept',
  tags,
  summary: 'Accept an invitation (signed in with the address it was sent to); answers the workspace joined',
  description: "The token is the e-mailed link's `token`; it travels in the body, so no log keeps it.",
  request: { body: jsonBody(z.object({ token: z.string({ error: 'token is required' }).min(1, 'token is required').max(200) })) },
  responses: { 200: one(z.object({ workspaceId: z.string() }), 'The workspace joined'), ...errorResponses(404, 409) },
})

export function createWorkspacesApi(deps: { workspaces: WorkspaceService; invitations: InvitationService; activity: AuditService }) {
  const { workspaces, invitations, activity: log } = deps
  const ok = { data: { ok: true as const } }
  return createRouter()
    .openapi(list, async (c) =>
      c.json(
        { data: (await workspaces.listFor(c.get('member').id)).map((w) => ({ ...toWorkspaceDto(w), memberCount: w.memberCount })) },
        200,
      ),
    )
    .openapi(create, async (c) => {
      const user = c.get('member')
      return c.json({ data: toWorkspaceDto(await workspaces.createTeam(user, c.req.valid('json').name)) }, 201)
    })
    .openapi(current, async (c) => c.json({ data: toWorkspaceDto(actorOf(c.get('member')).workspace) }, 200))
    .openapi(update, async (c) =>
      c.json({ data: toWorkspaceDto(await workspaces.update(actorOf(c.get('member')), c.req.valid('json'))) }, 200),
    )
    .openapi(remove, async (c) => {
      await workspaces.remove(actorOf(c.get('member')))
      return c.json(ok, 200)
    })
    .openapi(members, async (c) => {
      const rows = await workspaces.members(actorOf(c.get('member')))
      return c.json({ data: rows.map((row) => ({ ...row, joinedAt: row.joinedAt.toISOString() })) }, 200)
    })
    .openapi(changeRole, async (c) => {
      await workspaces.changeRole(actorOf(c.get('member')), c.req.valid('param').userId, c.req.valid('json').role)
      return c.json(ok, 200)
    })
    .openapi(removeMember, async (c) => {
      await workspaces.removeMember(actorOf(c.get('member')), c.req.valid('param').userId)
      return c.json(ok, 200)
    })
    .openapi(leave, async (c) => {
      const actor = actorOf(c.get('member'))
      await workspaces.removeMember(actor, actor.id)
      return c.json(ok, 200)
    })
    .openapi(transfer, async (c) => {
      await workspaces.transferOwnership(actorOf(c.get('member')), c.req.valid('json').userId)
      return c.json(ok, 200)
    })
    .openapi(pendingInvitations, async (c) =>
      c.json({ data: (await invitations.listPending(actorOf(c.get('member')))).map(toInvitationDto) }, 200),
    )
    .openapi(invite, async (c) =>
      c.json({ data: toInvitationDto(await invitations.invite(actorOf(c.get('member')), c.req.valid('json'))) }, 201),
    )
    .openapi(revokeInvitation, async (c) => {
      await invitations.revoke(actorOf(c.get('member')), c.req.valid('param').id)
      return c.json(ok, 200)
    })
    .openapi(activity, async (c) => {
      const page = await log.listForWorkspace(actorOf(c.get('member')).workspace.id, c.req.valid('query'))
      const data = page.items.map((entry) => ({
        id: entry.id,
        actor: { id: entry.actorId, email: entry.actorEmail },
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        summary: entry.summary,
        createdAt: entry.createdAt.toISOString(),
      }))
      return c.json({ data, total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(accept, async (c) => {
      const user = c.get('member')
      return c.json({ data: { workspaceId: await invitations.accept(c.req.valid('json').token, user) } }, 200)
    })
}
