import { z } from '@hono/zod-openapi'
import { changePasswordSchema, loginSchema, profileUpdateSchema, registerSchema } from '#common/auth.ts'
import { member, publicRoute, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, errorSchema, jsonBody } from '#server/http/openapi.ts'
import { SECOND_FACTOR_MESSAGE, SECOND_FACTOR_REQUIRED } from '#common/two-factor.ts'
import type { AuthService } from './auth.service.ts'
import type { ViewAsService } from './view-as.service.ts'
import { toUserDto, userSchema } from './auth.dto.ts'

/** A session is used when there is one; without one the route still answers. */
const optionalSession: Record<string, string[]>[] = [{ bearerAuth: [] }, { cookieAuth: [] }, {}]

const dataOf = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ data: schema }) } },
})

const register = publicRoute({
  method: 'post',
  path: '/register',
  tags: ['Auth'],
  summary: 'Create an account (then sign in with /auth/login)',
  request: { body: jsonBody(registerSchema) },
  responses: { 201: dataOf(z.object({ user: userSchema }), 'Account created'), ...errorResponses(400, 409, 429) },
})

const secondFactorDueSchema = z
  .object({
    message: z.literal(SECOND_FACTOR_MESSAGE),
    code: z.literal(SECOND_FACTOR_REQUIRED),
    data: z.object({
      ticket: z.string(),
      methods: z.array(z.enum(['totp', 'recovery-code'])),
      expiresIn: z.number().int().openapi({ description: 'Seconds the ticket stays valid' }),
    }),
  })
  .openapi('SecondFactorRequired')

const login = publicRoute({
  method: 'post',
  path: '/login',
  tags: ['Auth'],
  summary: 'Sign in: returns a bearer token and also sets the auth_session cookie',
  description:
    'For an account with two-factor sign-in on, a right password answers 401 with `code: "SECOND_FACTOR_REQUIRED"` and a ' +
    '`data.ticket` (no token, no session): send it with a code or a recovery code to `POST /auth/login/second-factor` ' +
    'within 5 minutes. Other 401s (wrong e-mail or password) have `code: "UNAUTHORIZED"`.',
  request: { body: jsonBody(loginSchema) },
  responses: {
    200: dataOf(z.object({ token: z.string(), user: userSchema }), 'Signed in'),
    401: {
      description: 'Wrong e-mail or password (an Error), or the password was right and a second factor is due',
      content: { 'application/json': { schema: z.union([secondFactorDueSchema, errorSchema]) } },
    },
    ...errorResponses(400, 429),
  },
})

const logout = publicRoute({
  method: 'post',
  path: '/logout',
  tags: ['Auth'],
  summary: 'Sign out: ends the session on the server and clears the cookie',
  description:
    "Without a session there is nothing to end, and it still answers 200. An admin viewing as a member (docs/decisions/064) signs out of both: the view ends, and so does the admin's own session.",
  security: optionalSession,
  responses: { 200: dataOf(z.object({ success: z.boolean() }), 'Signed out') },
})

const me = signedInRoute(member('any'), {
  method: 'get',
  path: '/me',
  tags: ['Auth'],
  summary: 'The signed-in user and profile',
  responses: { 200: dataOf(userSchema, 'The current user') },
})

const updateProfile = signedInRoute(member('any'), {
  method: 'put',
  path: '/profile',
  tags: ['Auth'],
  summary: 'Update your name, avatar, time zone or phone (phone, phone_number or phoneNumber; E.164)',
  request: { body: jsonBody(profileUpdateSchema) },
  responses: { 200: dataOf(userSchema, 'The updated user'), ...errorResponses(400) },
})

const changePassword = signedInRoute(member('never'), {
  method: 'put',
  path: '/change-password',
  tags: ['Auth'],
  summary: 'Change your password: every other session ends and a new token is returned',
  description:
    'Needs a session: a request signed in with an API key is refused (403). Every API key and connected device of the account ' +
    'is revoked too, unless `revokeApiKeys` is false; `revokedApiKeys` and `revokedDevices` say how many were.',
  request: { body: jsonBody(changePasswordSchema) },
  responses: {
    200: dataOf(
      z.object({ token: z.string().nullable(), revokedApiKeys: z.number().int(), revokedDevices: z.number().int() }),
      'Password changed',
    ),
    ...errorResponses(400, 429),
  },
})

export function createAuthApi(authService: AuthService, viewAs: Pick<ViewAsService, 'held' | 'end'>) {
  return createRouter()
    .openapi(register, async (c) => {
      const user = await authService.register(c.req.valid('json'), { headers: c.req.raw.headers, ip: c.get('clientIp') })
      return c.json({ data: { user: toUserDto(user) } }, 201)
    })
    .openapi(login, async (c) => {
      const result = await authService.login(c.req.valid('json'), { headers: c.req.raw.headers, ip: c.get('clientIp') })
      if (result.secondFactor) {
        // No cookie either: the ticket in the body is what the second step takes.
        const data = { ticket: result.ticket, methods: result.methods, expiresIn: result.expiresInSeconds }
        return c.json({ message: SECOND_FACTOR_MESSAGE, code: SECOND_FACTOR_REQUIRED, data }, 401)
      }
      for (const cookie of result.setCookies) c.header('Set-Cookie', cookie, { append: true })
      return c.json({ data: { token: result.token, user: toUserDto(result.user) } }, 200)
    })
    .openapi(logout, async (c) => {
      const held = viewAs.held(c.req.header('cookie'))
      if (held)
        for (const cookie of (await viewAs.end(held, 'signed-out', { restore: false })).setCookies)
          c.header('Set-Cookie', cookie, { append: true })
      const cookies = await authService.logout(c.get('credential'))
      for (const cookie of cookies) c.header('Set-Cookie', cookie, { append: true })
      return c.json({ data: { success: true } }, 200)
    })
    .openapi(me, (c) => c.json({ data: toUserDto(c.get('member')) }, 200))
    .openapi(updateProfile, async (c) => {
      const user = c.get('member')
      const profile = await authService.updateProfile(user.id, c.req.valid('json'))
      return c.json({ data: toUserDto({ ...user, profile }) }, 200)
    })
    .openapi(changePassword, async (c) => {
      const result = await authService.changePassword(c.get('member').id, c.req.valid('json'), c.get('credential'))
      for (const cookie of result.setCookies) c.header('Set-Cookie', cookie, { append: true })
      return c.json({ data: { token: result.token, revokedApiKeys: result.revokedApiKeys, revokedDevices: result.revokedDevices } }, 200)
    })
}
