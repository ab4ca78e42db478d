import { z } from './zod.ts'

/** Every key starts with this, so a bearer value can be told from a session token at a glance. */
export const API_KEY_PREFIX = 'ak_'
const API_KEY_NAME_MAX_LENGTH = 60
/** Active (not revoked) keys a member may hold at once. */
export const MAX_ACTIVE_API_KEYS = 20

/**
 * What a key may do (ADR 015). A key never manages keys, credentials, users or settings: those need
 * a person signed in. `automations` is every key's default; the admin scopes are for admins' keys.
 */
export const API_KEY_SCOPES = ['automations', 'admin:read', 'admin:content'] as const
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]
export const ADMIN_API_KEY_SCOPES: readonly ApiKeyScope[] = ['admin:read', 'admin:content']
const DEFAULT_API_KEY_SCOPES: ApiKeyScope[] = ['automations']

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  automations: 'Automations and runs: create, change, start and report runs of your own automations',
  'admin:read': 'Admin, read only: users, inquiries, settings, audit log, every member’s runs',
  'admin:content': 'Admin, content: write blog posts, upload covers, draft with AI, process inquiries',
}

/** Settings' 'Create API Key' form and POST /api/keys. */
export const apiKeyCreateSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(API_KEY_NAME_MAX_LENGTH, `Name must be at most ${API_KEY_NAME_MAX_LENGTH} characters.`),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `Each scope must be one of: ${API_KEY_SCOPES.join(', ')}.` }))
    .min(1, 'Choose at least one scope.')
    .max(API_KEY_SCOPES.length)
    .transform((scopes) => [...new Set(scopes)])
    .default(DEFAULT_API_KEY_SCOPES),
})

/** A session or a device token at the MCP server (docs/decisions/066). */
export const MCP_NEEDS_API_KEY_MESSAGE = 'The MCP server takes an API key: create one under Settings, API Keys.'

export const API_KEY_CREDENTIALS_MESSAGE = 'API keys cannot manage API keys or account credentials.'
export const API_KEY_SESSION_ONLY_MESSAGE = 'This needs a signed-in session: API keys cannot manage users or settings.'
export const ADMIN_SCOPES_MESSAGE = 'Only an admin can give a key an admin scope.'
export const missingScopeMessage = (scope: ApiKeyScope) => `This API key does not have the ${scope} scope.`
