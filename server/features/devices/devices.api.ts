import { z } from '@hono/zod-openapi'
import { DEVICE_KINDS, deviceChangeSchema, PAIRING_RATE_LIMIT, pairingRequestSchema } from '#common/devices.ts'
import { callerOf, deviceOwnRecord, member, publicRoute, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, jsonBody, bodyReadByHandler } from '#server/http/openapi.ts'
import type { DeviceService, DeviceSummary } from './device.service.ts'
import type { PairingService } from './pairing.service.ts'

const tags = ['Devices']

const deviceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(DEVICE_KINDS),
    version: z.string(),
    createdAt: z.string(),
    lastSeenAt: z.string().nullable(),
    holdsKey: z.boolean().openapi({ description: 'It made a key pair when it was paired, so vault values can be sealed to it' }),
    vaultValues: z.boolean().openapi({ description: 'Its member allowed it the vault values its runs type (docs/decisions/048)' }),
  })
  .openapi('Device', { description: 'A connected browser extension or local runner; never its token' })

const toDeviceDto = (device: DeviceSummary): z.infer<typeof deviceSchema> => ({
  id: device.id,
  name: device.name,
  kind: device.kind,
  version: device.version,
  createdAt: device.createdAt.toISOString(),
  lastSeenAt: device.lastSeenAt?.toISOString() ?? null,
  holdsKey: device.holdsKey,
  vaultValues: device.vaultValues,
})

const issuedPairingSchema = z
  .object({
    pairingId: z.string(),
    userCode: z.string().openapi({ example: 'ABCD-2345' }),
    pollSecret: z.string().openapi({ description: 'Proves the poller is the device that asked. Shown this once.' }),
    verificationUrl: z.string().openapi({ example: 'https://aether.example/connect?code=ABCD-2345' }),
    expiresIn: z.number().int(),
    interval: z.number().int(),
  })
  .openapi('DevicePairing')

const collectedSchema = z
  .object({
    token: z.string().openapi({ description: 'The device token (dev_…): shown this once, only its hash is kept.' }),
    device: z.object({ id: z.string(), name: z.string(), kind: z.enum(DEVICE_KINDS) }),
    workspace: z.object({ id: z.string(), name: z.string() }),
  })
  .openapi('DeviceToken')

const requestPairing = publicRoute({
  method: 'post',
  path: '/pairings',
  tags,
  summary: 'A device (browser extension, local runner) asks to be connected; the member approves its code on /connect',
  description:
    `No credential. Show \`userCode\` to the member or open \`verificationUrl\`, then poll POST /devices/pairings/{pairingId}/token ` +
    `every \`interval\` seconds with the poll secret until it answers the token, or until \`expiresIn\` seconds have passed. ` +
    `At most ${PAIRING_RATE_LIMIT.limit} requests a minute per client address (429).`,
  request: { body: jsonBody(pairingRequestSchema) },
  responses: {
    201: { description: 'The pairing', content: { 'application/json': { schema: z.object({ data: issuedPairingSchema }) } } },
    ...errorResponses(400, 429),
  },
})

const collectToken = publicRoute({
  method: 'post',
  path: '/pairings/{pairingId}/token',
  tags,
  summary: 'A device polls for its token with the poll secret: answered once, after the member approved',
  description:
    'Body: {"pollSecret": "…", "publicKey": "…"}; publicKey (optional) is the public half of a P-256 key pair the device made and keeps, ' +
    'as base64url of the uncompressed point: vault values reach the device only sealed to it, where its member allows them (docs/decisions/048). ' +
    '400 PAIRING_PENDING while the member has not decided; 410 PAIRING_DENIED when they denied it; ' +
    '410 PAIRING_EXPIRED once the pairing expired or its token was already collected. A wrong secret, or an unknown pairing, is ' +
    '401 (checked before anything else, so it tells nothing). Use the token as `Authorization: Bearer dev_…`.',
  // The poll secret is the credential: read by the handler, so a malformed request is refused like a wrong one (401).
  parameters: [{ name: 'pairingId', in: 'path', required: true, schema: { type: 'string' }, description: 'The pairing’s id' }],
  request: { body: bodyReadByHandler(z.object({ pollSecret: z.string(), publicKey: z.string().optional() })) },
  responses: {
    200: { description: 'The device token', content: { 'application/json': { schema: z.object({ data: collectedSchema }) } } },
    ...errorResponses(400, 401, 410),
  },
})

const me = signedInRoute(deviceOwnRecord(), {
  method: 'get',
  path: '/me',
  tags,
  summary: 'The device a device token belongs to: its name, its workspace and its member',
  responses: {
    200: {
      description: 'The device',
      content: {
        'application/json': {
          schema: z.object({
            data: deviceSchema.extend({
              workspace: z.object({ id: z.string(), name: z.string() }),
              user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
            }),
          }),
        },
      },
    },
    ...errorResponses(404),
  },
})

const disconnectItself = signedInRoute(deviceOwnRecord(), {
  method: 'delete',
  path: '/me',
  tags,
  summary:
    'A device disconnects itself ("Disconnect this browser", the runner\'s forget): its token is refused from now on and its slot is free',
  responses: {
    200: { description: 'The revoked device', content: { 'application/json': { schema: z.object({ data: deviceSchema }) } } },
    ...errorResponses(404),
  },
})

const list = signedInRoute(member('any', 'viewer'), {
  method: 'get',
  path: '/',
  tags,
  summary: 'Your connected devices in the current workspace, most recent first (a device token cannot list them)',
  responses: {
    200: { description: 'Your devices', content: { 'application/json': { schema: z.object({ data: z.array(deviceSchema) }) } } },
  },
})

const SESSION_ONLY = 'Needs a session: an API key or a device token is refused (403).'
const idParams = z.object({ id: z.string().min(1).max(100) })

const rename = signedInRoute(member('never', 'viewer'), {
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Rename one of your devices, or let it receive vault values (or stop them)',
  description:
    `${SESSION_ONLY} vaultValues true lets the device receive the vault values its runs type, sealed to the key it made when it was ` +
    'paired (docs/decisions/048): for the workspace’s admins and owner only (403), and a device paired without a key is 409.',
  request: { params: idParams, body: jsonBody(deviceChangeSchema) },
  responses: {
    200: { description: 'The device', content: { 'application/json': { schema: z.object({ data: deviceSchema }) } } },
    ...errorResponses(400, 403, 404, 409),
  },
})

const revoke = signedInRoute(member('never', 'viewer'), {
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Revoke one of your devices: its token is refused (401) from its next request on',
  description: SESSION_ONLY,
  request: { params: idParams },
  responses: {
    200: { description: 'The revoked device', content: { 'application/json': { schema: z.object({ data: deviceSchema }) } } },
    ...errorResponses(404),
  },
})

/**
 * The poll's body, read only by the handler: anything but {"pollSecret": "<string>"} is a wrong
 * secret. `publicKey`, the device's own key for vault values (docs/decisions/048), is optional.
 */
function pollOf(text: string): { pollSecret: unknown; publicKey: unknown } {
  try {
    const body: unknown = JSON.parse(text)
    if (!body || typeof body !== 'object') return { pollSecret: undefined, publicKey: undefined }
    return { pollSecret: 'pollSecret' in body ? body.pollSecret : undefined, publicKey: 'publicKey' in body ? body.publicKey : undefined }
  } catch {
    return { pollSecret: undefined, publicKey: undefined }
  }
}

export function createDevicesApi(deps: { devices: DeviceService; pairings: PairingService }) {
  const { devices, pairings } = deps
  return createRouter()
    .openapi(requestPairing, async (c) => {
      const issued = await pairings.request(c.req.valid('json'), c.get('clientIp'))
      c.header('Cache-Control', 'no-store')
      return c.json({ data: issued }, 201)
    })
    .openapi(collectToken, async (c) => {
      const collected = await pairings.collect(c.req.param('pairingId'), pollOf(await c.req.text()))
      c.header('Cache-Control', 'no-store')
      return c.json({ data: collected }, 200)
    })
    .openapi(me, async (c) => {
      const via = c.get('member').signedInWith
      if (via.kind !== 'device') throw new Error('the route’s rule lets devices only in')
      const device = await devices.me(via.deviceId)
      return c.json({ data: { ...toDeviceDto(device), workspace: device.workspace, user: device.user } }, 200)
    })
    .openapi(disconnectItself, async (c) => {
      const user = c.get('member')
      if (user.signedInWith.kind !== 'device') throw new Error('the route’s rule lets devices only in')
      const revoked = await devices.revoke(callerOf(user), user.signedInWith.deviceId)
      return c.json({ data: toDeviceDto(revoked) }, 200)
    })
    .openapi(list, async (c) => {
      return c.json({ data: (await devices.list(callerOf(c.get('member')))).map(toDeviceDto) }, 200)
    })
    .openapi(rename, async (c) => {
      const caller = callerOf(c.get('member'))
      const { id } = c.req.valid('param')
      const { name, vaultValues } = c.req.valid('json')
      let changed = name === undefined ? null : await devices.rename(caller, id, name)
      if (vaultValues !== undefined) changed = await devices.allowVaultValues(caller, id, vaultValues)
      if (!changed) throw new Error('the schema asks for a change')
      return c.json({ data: toDeviceDto(changed) }, 200)
    })
    .openapi(revoke, async (c) => {
      const revoked = await devices.revoke(callerOf(c.get('member')), c.req.valid('param').id)
      return c.json({ data: toDeviceDto(revoked) }, 200)
    })
}
