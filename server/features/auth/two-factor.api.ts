import { z } from '@hono/zod-openapi'
import { passwordConfirmSchema, secondFactorSchema, twoFactorConfirmSchema, twoFactorDisableSchema } from '#common/two-factor.ts'
import { member, publicRoute, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import { toUserDto, userSchema } from './auth.dto.ts'
import type { TwoFactorService } from './two-factor.service.ts'

// Two-factor sign-in over the own API (docs/decisions/023): the second step of POST /auth/login,
// and the set-up that Settings also does. Changing it needs a session (never an API key).

const tags = ['Two-factor sign-in']
const dataOf = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ data: schema }) } },
})
/** Answers that carry a secret or recovery codes are never stored by a cache. */
const NO_STORE = { 'Cache-Control': 'no-store' }

const statusSchema = z
  .object({ enabled: z.boolean(), pending: z.boolean(), recoveryCodesLeft: z.number().int() })
  .openapi('TwoFactorStatus')

const secondFactor = publicRoute({
  method: 'post',
  path: '/login/second-factor',
  tags,
  summary: 'The second step of a sign-in: the ticket from /auth/login and a code (or a recovery code)',
  description:
    'Answers like `POST /auth/login` does without two-factor: a bearer token, and the auth_session cookie. A ticket ' +
    'lasts 5 minutes and works once; 5 wrong codes spend it (401, `SECOND_FACTOR_EXPIRED`: sign in again). A recovery ' +
    "code works once. 10 wrong codes in a row lock the account's second step for 15 minutes (429).",
  request: { body: jsonBody(secondFactorSchema) },
  responses: {
    200: dataOf(z.object({ token: z.string(), user: userSchema }), 'Signed in'),
    ...errorResponses(400, 401, 429),
  },
})

const status = signedInRoute(member('never'), {
  method: 'get',
  path: '/two-factor',
  tags,
  summary: 'Whether two-factor sign-in is on, and how many recovery codes are left',
  responses: { 200: dataOf(statusSchema, 'Two-factor status') },
})

const setup = signedInRoute(member('never'), {
  method: 'post',
  path: '/two-factor/setup',
  tags,
  summary: 'Start setting up an authenticator app: the otpauth:// address and its secret',
  description:
    'Not in force until `POST /auth/two-factor/confirm` receives the first code. Starting again replaces a set-up not yet confirmed.',
  request: { body: jsonBody(passwordConfirmSchema) },
  responses: {
    200: dataOf(z.object({ totpUri: z.string(), secret: z.string() }), 'Scan or type this into the app'),
    ...errorResponses(400, 409, 429),
  },
})

const confirm = signedInRoute(member('never'), {
  method: 'post',
  path: '/two-factor/confirm',
  tags,
  summary: 'Finish the set-up with the first code: two-factor is on, and the recovery codes are answered this once',
  description: 'The session is replaced: use the returned token (a cookie session gets its new cookie).',
  request: { body: jsonBody(twoFactorConfirmSchema) },
  responses: {
    200: dataOf(z.object({ recoveryCodes: z.array(z.string()), token: z.string() }), 'Two-factor sign-in is on'),
    ...errorResponses(400, 409, 429),
  },
})

const recoveryCodes = signedInRoute(member('never'), {
  method: 'post',
  path: '/two-factor/recovery-codes',
  tags,
  summary: 'A new set of recovery codes (the old ones stop working), answered this once',
  request: { body: jsonBody(passwordConfirmSchema) },
  responses: { 200: dataOf(z.object({ recoveryCodes: z.array(z.string()) }), 'New recovery codes'), ...errorResponses(400, 409, 429) },
})

const disable = signedInRoute(member('never'), {
  method: 'post',
  path: '/two-factor/disable',
  tags,
  summary: 'Turn two-factor sign-in off, with your password or a code from the app',
  request: { body: jsonBody(twoFactorDisableSchema) },
  responses: { 200: dataOf(statusSchema, 'Two-factor sign-in is off'), ...errorResponses(400, 409, 429) },
})

export function createTwoFactorApi(twoFactor: TwoFactorService) {
  return createRouter()
    .openapi(secondFactor, async (c) => {
      const result = await twoFactor.completeSignIn(c.req.valid('json'), { headers: c.req.raw.headers, ip: c.get('clientIp') })
      for (const cookie of result.setCookies) c.header('Set-Cookie', cookie, { append: true })
      return c.json({ data: { token: result.token, user: toUserDto(result.user) } }, 200)
    })
    .openapi(status, async (c) => c.json({ data: await twoFactor.status(c.get('member').id) }, 200))
    .openapi(setup, async (c) => {
      const started = await twoFactor.beginSetup(c.get('member').id, c.req.valid('json'), c.get('credential'))
      return c.json({ data: started }, 200, NO_STORE)
    })
    .openapi(confirm, async (c) => {
      const done = await twoFactor.confirmSetup(c.get('member').id, c.req.valid('json').code, c.get('credential'))
      for (const cookie of done.setCookies) c.header('Set-Cookie', cookie, { append: true })
      return c.json({ data: { recoveryCodes: done.recoveryCodes, token: done.token } }, 200, NO_STORE)
    })
    .openapi(recoveryCodes, async (c) => {
      const codes = await twoFactor.regenerateRecoveryCodes(c.get('member').id, c.req.valid('json'), c.get('credential'))
      return c.json({ data: { recoveryCodes: codes } }, 200, NO_STORE)
    })
    .openapi(disable, async (c) => {
      const user = c.get('member')
      await twoFactor.disable(user.id, c.req.valid('json'), c.get('credential'))
      return c.json({ data: await twoFactor.status(user.id) }, 200)
    })
}
