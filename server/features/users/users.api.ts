import { z } from '@hono/zod-openapi'
import { ROLES } from '#common/auth.ts'
import { NotFound } from '#common/errors.ts'
import { paginationQuerySchema } from '#common/pagination.ts'
import { profileSchema, toProfileDto } from '#server/http/profile-dto.ts'
import { admin, signedInRoute } from '#server/http/access.ts'
import { adminPasswordResetSchema, adminUserCreateSchema, adminUserUpdateSchema } from '#common/users.ts'
import { createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import type { UserAdminService } from './user-admin.service.ts'
import type { UserListItem, UserService } from './user.service.ts'

const adminUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    phone: z.string().nullable().openapi({ description: "The profile's phone number (E.164), or null" }),
    emailVerified: z.boolean(),
    email_confirmed_at: z.string().nullable(),
    last_sign_in_at: z.string().nullable(),
    created_at: z.string(),
    twoFactorEnabled: z.boolean(),
    passkeys: z.number().int(),
    suspension: z
      .object({ at: z.string(), reason: z.string() })
      .nullable()
      .openapi({ description: 'Since when and why an admin suspended the account (POST /users/{id}/suspend); null when it is not' }),
    erasesAt: z.string().nullable().openapi({
      description: 'When the account is erased: its member asked to delete it, and signing in before then cancels it; null otherwise',
    }),
    profile: profileSchema,
  })
  .openapi('AdminUser')

function toAdminUserDto(user: UserListItem): z.infer<typeof adminUserSchema> {
  return {
    id: user.id,
    email: user.email,
    phone: user.profile.phone,
    emailVerified: user.emailVerified,
    // Better Auth records that the address was verified, not when; the account's creation is the
    // closest honest date for the spec's email_confirmed_at.
    email_confirmed_at: user.emailVerified ? user.createdAt.toISOString() : null,
    last_sign_in_at: user.lastSignInAt?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
    twoFactorEnabled: user.twoFactorEnabled,
    passkeys: user.passkeyCount,
    suspension: user.suspension ? { at: user.suspension.at.toISOString(), reason: user.suspension.reason } : null,
    erasesAt: user.erasesAt?.toISOString() ?? null,
    profile: toProfileDto(user.profile),
  }
}

const listQuerySchema = paginationQuerySchema.extend({
  role: z.enum(ROLES).optional(),
  search: z.string().trim().max(200).optional(),
})

const list = signedInRoute(admin('admin:read'), {
  method: 'get',
  path: '/',
  tags: ['Users (admin)'],
  summary: 'List users, newest first, with paging, optional role filter and search by e-mail or name',
  request: { query: listQuerySchema },
  responses: {
    200: {
      description: 'A page of users',
      content: {
        'application/json': {
          schema: z.object({
            data: z.array(adminUserSchema),
            users: z.array(adminUserSchema),
            total: z.number().int(),
            page: z.number().int(),
            limit: z.number().int(),
          }),
        },
      },
    },
    ...errorResponses(400),
  },
})

const getOne = signedInRoute(admin('admin:read'), {
  method: 'get',
  path: '/{id}',
  tags: ['Users (admin)'],
  summary: 'One user with profile',
  request: { params: z.object({ id: z.string().min(1).max(100) }) },
  responses: {
    200: { description: 'The user', content: { 'application/json': { schema: z.object({ data: adminUserSchema }) } } },
    ...errorResponses(404),
  },
})

const idParam = z.object({ id: z.string().min(1).max(100) })
const userResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ data: adminUserSchema }) } },
})
const ok = { description: 'Done', content: { 'application/json': { schema: z.object({ data: z.object({ success: z.boolean() }) }) } } }

const create = signedInRoute(admin('never'), {
  method: 'post',
  path: '/',
  tags: ['Users (admin)'],
  summary: 'Create a user (email, password, fullName?, role?, phone?)',
  request: { body: jsonBody(adminUserCreateSchema) },
  responses: { 201: userResponse('The new user'), ...errorResponses(400, 409) },
})

const update = signedInRoute(admin('never'), {
  method: 'put',
  path: '/{id}',
  tags: ['Users (admin)'],
  summary:
    'Change name, role, plan (plan, subscription_plan or subscriptionPlan), credits or phone (phone, phone_number or phoneNumber); audited',
  description: 'Credits are set through the credit ledger with the admin as actor. Nobody can demote the last admin or themselves.',
  request: { params: idParam, body: jsonBody(adminUserUpdateSchema) },
  responses: { 200: userResponse('The updated user'), ...errorResponses(400, 404, 409) },
})

const remove = signedInRoute(admin('never'), {
  method: 'delete',
  path: '/{id}',
  tags: ['Users (admin)'],
  summary: 'Delete a user with their sessions (not yourself, not the last admin)',
  request: { params: idParam },
  responses: { 200: ok, ...errorResponses(404, 409) },
})

const resetPassword = signedInRoute(admin('never'), {
  method: 'post',
  path: '/{id}/reset-password',
  tags: ['Users (admin)'],
  summary: "Set a user's password; their sessions end",
  request: { params: idParam, body: jsonBody(adminPasswordResetSchema) },
  responses: { 200: ok, ...errorResponses(400, 404) },
})

const resetTwoFactor = signedInRoute(admin('never'), {
  method: 'post',
  path: '/{id}/reset-two-factor',
  tags: ['Users (admin)'],
  summary: "Turn off a user's two-factor sign-in and remove their passkeys (a lost device); recorded in the audit log",
  request: { params: idParam },
  responses: {
    200: { description: 'Reset', content: { 'application/json': { schema: z.object({ data: adminUserSchema }) } } },
    ...errorResponses(404),
  },
})

const signOut = signedInRoute(admin('never'), {
  method: 'post',
  path: '/{id}/sign-out',
  tags: ['Users (admin)'],
  summary: 'End every signed-in session of a user at once (API keys and devices stay); recorded in the audit log',
  request: { params: idParam },
  responses: {
    200: {
      description: 'Signed out',
      content: { 'application/json': { schema: z.object({ data: z.object({ sessionsEnded: z.number().int() }) }) } },
    },
    ...errorResponses(404),
  },
})

const resendVerification = signedInRoute(admin('never'), {
  method: 'post',
  path: '/{id}/verification-email',
  tags: ['Users (admin)'],
  summary: 'Send a user the e-mail verification link again; recorded in the audit log',
  request: { params: idParam },
  responses: { 200: ok, ...errorResponses(404, 409) },
})

export function createUsersApi(userService: UserService, admin: UserAdminService) {
  return createRouter()
    .openapi(list, async (c) => {
      const page = await userService.list(c.req.valid('query'))
      const items = page.items.map(toAdminUserDto)
      return c.json({ data: items, users: items, total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(getOne, async (c) => {
      const user = await userService.get(c.req.valid('param').id)
      if (!user) throw new NotFound('User not found')
      return c.json({ data: toAdminUserDto(user) }, 200)
    })
    .openapi(create, async (c) => {
      const actor = c.get('member')
      return c.json({ data: toAdminUserDto(await admin.create(actor, c.req.valid('json'))) }, 201)
    })
    .openapi(update, async (c) => {
      const actor = c.get('member')
      return c.json({ data: toAdminUserDto(await admin.update(actor, c.req.valid('param').id, c.req.valid('json'))) }, 200)
    })
    .openapi(remove, async (c) => {
      const actor = c.get('member')
      await admin.remove(actor, c.req.valid('param').id)
      return c.json({ data: { success: true } }, 200)
    })
    .openapi(resetPassword, async (c) => {
      const actor = c.get('member')
      await admin.setPassword(actor, c.req.valid('param').id, c.req.valid('json').newPassword)
      return c.json({ data: { success: true } }, 200)
    })
    .openapi(resetTwoFactor, async (c) => {
      const id = c.req.valid('param').id
      await admin.resetTwoFactor(c.get('member'), id)
      const user = await userService.get(id)
      if (!user) throw new NotFound('User not found')
      return c.json({ data: toAdminUserDto(user) }, 200)
    })
    .openapi(signOut, async (c) => {
      const sessionsEnded = await admin.signOutEverywhere(c.get('member'), c.req.valid('param').id)
      return c.json({ data: { sessionsEnded } }, 200)
    })
    .openapi(resendVerification, async (c) => {
      await admin.resendVerification(c.get('member'), c.req.valid('param').id)
      return c.json({ data: { success: true } }, 200)
    })
}
