import { Forbidden } from './errors.ts'
import { z } from './zod.ts'

/** Every key starts with this, so a bearer value can be told from a session token at a glance. */
export const API_KEY_PREFIX = 'ak_'
export const API_KEY_NAME_MAX_LENGTH = 60
/** Active (not revoked) keys a member may hold at once. */
export const MAX_ACTIVE_API_KEYS = 20

/** Settings' 'Create API Key' form and POST /api/keys. */
export const apiKeyCreateSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(API_KEY_NAME_MAX_LENGTH, `Name must be at most ${API_KEY_NAME_MAX_LENGTH} characters.`),
})
export type ApiKeyCreateInput = z.infer<typeof apiKeyCreateSchema>

export const API_KEY_CREDENTIALS_MESSAGE = 'API keys cannot manage API keys or account credentials.'

/**
 * A leaked key must not take over the account: requests signed in with an API key cannot create
 * or revoke keys, nor change the password or e-mail address.
 */
export function refuseApiKeyCaller(user: { via: 'session' | 'api-key' }): void {
  if (user.via === 'api-key') throw new Forbidden(API_KEY_CREDENTIALS_MESSAGE)
}
