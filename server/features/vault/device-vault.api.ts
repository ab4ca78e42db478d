import { z } from '@hono/zod-openapi'
import { automationStepSchema } from '#common/automation-steps.ts'
import { VAULT_SECRET_KINDS, VAULT_USE_ROLES } from '#common/vault.ts'
import { deviceItself, signedInRoute } from '#server/http/access.ts'
import { createRouter, errorResponses, ownedResourceParams } from '#server/http/openapi.ts'
import type { DeviceVault } from './device-vault.ts'

const sealedSecretSchema = z
  .object({
    name: z.string().openapi({ example: 'shop_password' }),
    kind: z.enum(VAULT_SECRET_KINDS),
    origins: z
      .array(z.string())
      .openapi({ description: 'The sites it may be typed on: the device checks the frame holding the field, as the cloud does' }),
    useRole: z.enum(VAULT_USE_ROLES),
    originsFromStepsAt: z.string().nullable(),
    sealed: z.string().openapi({
      description:
        'The value (a TOTP secret’s key) sealed to the device’s public key: v1.<ephemeral P-256 key>.<iv>.<AES-256-GCM data>, base64url; ' +
        'HKDF-SHA256 of the ECDH secret, salted with the ephemeral key; bound to "vault value:<run id>:<device id>:<name>" (common/device-seal.ts)',
    }),
  })
  .openapi('SealedVaultValue')

const sealedForRun = signedInRoute(deviceItself(), {
  method: 'post',
  path: '/{id}/vault',
  tags: ['Vault'],
  summary: 'A device receives the vault values its running client run types, sealed to its own key',
  description:
    'Only the device the run is on (started there, or queued for it and taken up), while it runs, and only when its member allowed vault ' +
    'values for it in Settings -> Devices and is an admin or the owner of the workspace (403 otherwise, saying what to do). ' +
    '`refusal` names the step whose secret the run’s starter may not use: the run fails there, and no value is sent. ' +
    'Every sending is recorded in the workspace’s activity (docs/decisions/048).',
  request: { params: ownedResourceParams },
  responses: {
    200: {
      description: 'The sealed values',
      content: {
        'application/json': {
          schema: z.object({
            data: z.object({
              refusal: z.object({ index: z.number().int(), message: z.string() }).nullable(),
              secrets: z.array(sealedSecretSchema),
              steps: z.array(automationStepSchema).openapi({
                description:
                  'The run’s steps as written: fill them with the run’s inputs and these values in one pass, so nothing an input brings is read as a placeholder',
              }),
            }),
          }),
        },
      },
    },
    ...errorResponses(403, 404, 409),
  },
})

/** POST /runs/{id}/vault: mounted under /runs, beside the runs' own routes. */
export function createDeviceVaultApi(deviceVault: DeviceVault) {
  return createRouter().openapi(sealedForRun, async (c) => {
    const via = c.get('member').signedInWith
    if (via.kind !== 'device') throw new Error('the route’s rule lets devices only in')
    const userId = c.get('member').id
    const answer = await deviceVault.sealedFor({ deviceId: via.deviceId, userId, workspaceId: via.workspaceId }, c.req.valid('param').id)
    c.header('Cache-Control', 'no-store')
    return c.json({ data: answer }, 200)
  })
}
