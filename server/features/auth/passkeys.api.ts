import { z } from '@hono/zod-openapi'
import { passkeyRegisterOptionsSchema, passkeyRegisterSchema, passkeySignInSchema } from '#common/two-factor.ts'
import { member, publicRoute, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody } from '#server/http/openapi.ts'
import { toUserDto, userSchema } from './auth.dto.ts'
import type { PasskeyRow, PasskeyService } from './passkey.service.ts'

// Passkeys over the own API (docs/decisions/023). Each ceremony is two calls: options for the
// browser's WebAuthn call (with a 5-minute challenge cookie), then the browser's answer.

const tags = ['Passkeys']
const dataOf = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema: z.object({ data: schema }) } },
})
const CEREMONY =
  'Sets a signed challenge cookie (5 minutes) that the next call must send back; pass `data` to ' +
  '`navigator.credentials` through @simplewebauthn/browser (`optionsJSON`).'

const passkeySchema = z
  .object({ id: z.string(), name: z.string(), createdAt: z.string().nullable(), deviceType: z.string(), backedUp: z.boolean() })
  .openapi('Passkey')
const optionsSchema = z.record(z.string(), z.unknown()).openapi('WebAuthnOptions')
const idParam = z.object({ id: z.string().min(1).max(200) })

const toPasskeyDto = (row: PasskeyRow): z.infer<typeof passkeySchema> => ({ ...row, createdAt: row.createdAt?.toISOString() ?? null })

const list = signedInRoute(member('never'), {
  method: 'get',
  path: '/passkeys',
  tags,
  summary: 'Your passkeys',
  responses: { 200: dataOf(z.array(passkeySchema), 'Your passkeys') },
})

const registrationOptions = signedInRoute(member('never'), {
  method: 'post',
  path: '/passkeys/options',
  tags,
  summary: 'Start adding a passkey (your password first): options for navigator.credentials.create()',
  description: CEREMONY,
  request: { body: jsonBody(passkeyRegisterOptionsSchema) },
  responses: { 200: dataOf(optionsSchema, 'WebAuthn creation options'), ...errorResponses(400, 429) },
})

const register = signedInRoute(member('never'), {
  method: 'post',
  path: '/passkeys',
  tags,
  summary: "Add the passkey the browser created (its answer to the options' challenge)",
  request: { body: jsonBody(passkeyRegisterSchema) },
  responses: { 201: dataOf(passkeySchema, 'The new passkey'), ...errorResponses(400) },
})

const remove = signedInRoute(member('never'), {
  method: 'delete',
  path: '/passkeys/{id}',
  tags,
  summary: 'Delete one of your passkeys',
  request: { params: idParam },
  responses: { 200: dataOf(passkeySchema, 'The deleted passkey'), ...errorResponses(404) },
})

const signInOptions = publicRoute({
  method: 'post',
  path: '/login/passkey/options',
  tags,
  summary: 'Start signing in with a passkey: options for navigator.credentials.get()',
  description: CEREMONY,
  responses: { 200: dataOf(optionsSchema, 'WebAuthn request options'), ...errorResponses(429) },
})

const signIn = publicRoute({
  method: 'post',
  path: '/login/passkey',
  tags,
  summary: 'Sign in with a passkey: both factors at once. Answers like POST /auth/login',
  request: { body: jsonBody(passkeySignInSchema) },
  responses: { 200: dataOf(z.object({ token: z.string(), user: userSchema }), 'Signed in'), ...errorResponses(400, 401, 429) },
})

export function createPasskeysApi(passkeys: PasskeyService) {
  return createRouter()
    .openapi(list, async (c) => c.json({ data: (await passkeys.list(c.get('member').id)).map(toPasskeyDto) }, 200))
    .openapi(registrationOptions, async (c) => {
      const ceremony = await passkeys.registrationOptions(c.get('member').id, c.req.valid('json'), c.get('credential'), c.req.raw.headers)
      for (const cookie of ceremony.setCookies) c.header('Set-Cookie', cookie, { append: true })
      return c.json({ data: ceremony.options }, 200)
    })
    .openapi(register, async (c) => {
      const added = await passkeys.register(c.get('member').id, c.req.valid('json'), c.get('credential'), c.req.raw.headers)
      return c.json({ data: toPasskeyDto(added) }, 201)
    })
    .openapi(remove, async (c) => {
      const removed = await passkeys.remove(c.get('member').id, c.req.valid('param').id)
      return c.json({ data: toPasskeyDto(removed) }, 200)
    })
    .openapi(signInOptions, async (c) => {
      const ceremony = await passkeys.signInOptions({ headers: c.req.raw.headers, ip: c.get('clientIp') })
      for (const cookie of ceremony.setCookies) c.header('Set-Cookie', cookie, { append: true })
      return c.json({ data: ceremony.options }, 200)
    })
    .openapi(signIn, async (c) => {
      const result = await passkeys.signIn(c.req.valid('json').response, { headers: c.req.raw.headers, ip: c.get('clientIp') })
      for (const cookie of result.setCookies) c.header('Set-Cookie', cookie, { append: true })
      return c.json({ data: { token: result.token, user: toUserDto(result.user) } }, 200)
    })
}
