import { createRoute, z } from '@hono/zod-openapi'
import { ROLES } from '#common/auth.ts'
import { NotFound } from '#common/errors.ts'
import { paginationQuerySchema } from '#common/pagination.ts'
import { toProfileDto, profileSchema } from '#server/features/auth/auth.dto.ts'
import { requireAdmin } from '#server/http/guards.ts'
import { bearerSecurity, createRouter, errorResponses } from '#server/http/openapi.ts'
import type { UserListItem, UserService } from './user.service.ts'

const adminUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    email_confirmed_at: z.string().nullable(),
    last_sign_in_at: z.string().nullable(),
    created_at: z.string(),
    profile: profileSchema,
  })
  .openapi('AdminUser')

function toAdminUserDto(user: UserListItem): z.infer<typeof adminUserSchema> {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    // Better Auth records that the address was verified, not when; the account's creation is the
    // closest honest date for the spec's email_confirmed_at.
    email_confirmed_at: user.emailVerified ? user.createdAt.toISOString() : null,
    last_sign_in_at: user.lastSignInAt?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
    profile: toProfileDto(user.profile),
  }
}

const listQuerySchema = paginationQuerySchema.extend({
  role: z.enum(ROLES).optional(),
  search: z.string().trim().max(200).optional(),
})

const list = createRoute({
  method: 'get',
  path: '/',
  tags: ['Users (admin)'],
  summary: 'List users, newest first, with paging, optional role filter and search by e-mail or name',
  security: bearerSecurity,
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
    ...errorResponses(400, 401, 403),
  },
})

const getOne = createRoute({
  method: 'get',
  path: '/{id}',
  tags: ['Users (admin)'],
  summary: 'One user with profile',
  security: bearerSecurity,
  request: { params: z.object({ id: z.string().min(1).max(100) }) },
  responses: {
    200: { description: 'The user', content: { 'application/json': { schema: z.object({ data: adminUserSchema }) } } },
    ...errorResponses(401, 403, 404),
  },
})

export function createUsersApi(userService: UserService) {
  return createRouter()
    .openapi(list, async (c) => {
      requireAdmin(c)
      const page = await userService.list(c.req.valid('query'))
      const items = page.items.map(toAdminUserDto)
      return c.json({ data: items, users: items, total: page.total, page: page.page, limit: page.limit }, 200)
    })
    .openapi(getOne, async (c) => {
      requireAdmin(c)
      const user = await userService.get(c.req.valid('param').id)
      if (!user) throw new NotFound('User not found')
      return c.json({ data: toAdminUserDto(user) }, 200)
    })
}
