import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm'
import { ADMIN_API_KEY_SCOPES, ADMIN_SCOPES_MESSAGE, API_KEY_PREFIX, MAX_ACTIVE_API_KEYS, type ApiKeyScope } from '#common/api-keys.ts'
import type { Caller } from '#common/auth.ts'
import { Conflict, Forbidden, NotFound } from '#common/errors.ts'
import type { Db } from '#server/db/client.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { apiKeys } from '#server/db/schema/index.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import { isUuid } from '#common/ids.ts'

/** What a member sees of a key: never the secret, never its hash. */
export interface ApiKeySummary {
  id: string
  name: string
  prefix: string
  scopes: ApiKeyScope[]
  createdAt: Date
  lastUsedAt: Date | null
  revokedAt: Date | null
}

export interface AuthenticatedKey {
  userId: string
  /** The workspace the key works in. */
  workspaceId: string
  keyId: string
  scopes: ApiKeyScope[]
}

/** ak_<8 hex: the stored prefix>_<43 base64url characters: 32 random bytes>. */
const KEY_PATTERN = /^(ak_[0-9a-f]{8})_[A-Za-z0-9_-]{43}$/
/** lastUsedAt is a hint, not an audit log: one write per key per minute at most. */
const LAST_USED_RESOLUTION_MS = 60_000
const PREFIX_ATTEMPTS = 5

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

function newKey(): { key: string; prefix: string } {
  const prefix = `${API_KEY_PREFIX}${randomBytes(4).toString('hex')}`
  return { prefix, key: `${prefix}_${randomBytes(32).toString('base64url')}` }
}

export function createApiKeyService(db: Db, activity: Pick<AuditService, 'record'>) {
  const summary = {
    id: apiKeys.id,
    name: apiKeys.name,
    prefix: apiKeys.prefix,
    scopes: apiKeys.scopes,
    createdAt: apiKeys.createdAt,
    lastUsedAt: apiKeys.lastUsedAt,
    revokedAt: apiKeys.revokedAt,
  }

  return {
    /** Creates a key for the caller's workspace and returns it whole: the only time it exists outside the caller's hands. */
    async create(owner: Caller, name: string, scopes: ApiKeyScope[]): Promise<ApiKeySummary & { key: string }> {
      if (owner.role !== 'admin' && scopes.some((scope) => ADMIN_API_KEY_SCOPES.includes(scope))) throw new Forbidden(ADMIN_SCOPES_MESSAGE)
      requireWorkspaceRole(owner.workspace.role, 'member', 'Creating API keys')
      const userId = owner.id
      const workspaceId = owner.workspace.id
      for (let attempt = 1; ; attempt++) {
        const { key, prefix } = newKey()
        try {
          return await db.transaction(async (tx) => {
            // One member's concurrent requests queue here, so the limit holds under a race.
            await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`api-keys:${userId}`}))`)
            const [active] = await tx
              .select({ value: count() })
              .from(apiKeys)
              .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
            if ((active?.value ?? 0) >= MAX_ACTIVE_API_KEYS) {
              throw new Conflict(`You can have at most ${MAX_ACTIVE_API_KEYS} active API keys. Revoke one you no longer use first.`)
            }
            const [row] = await tx
              .insert(apiKeys)
              .values({ userId, workspaceId, name, prefix, scopes, hash: sha256(key) })
              .returning(summary)
            if (!row) throw new Error('api key was not inserted')
            await activity.record(tx, owner, {
              workspaceId,
              action: 'api_key.create',
              targetType: 'api_key',
              targetId: row.id,
              summary: `Created the API key ${name} (${prefix}…)`,
            })
            return { ...row, key }
          })
        } catch (error) {
          // Two keys sharing 32 random bits of prefix: rare, and a fresh key solves it.
          if (attempt < PREFIX_ATTEMPTS && isUniqueViolation(error)) continue
          throw error
        }
      }
    },

    /** The caller's keys for their current workspace, newest first, revoked ones included (with revokedAt). */
    async list(caller: Pick<Caller, 'id' | 'workspace'>): Promise<ApiKeySummary[]> {
      return db
        .select(summary)
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, caller.id), eq(apiKeys.workspaceId, caller.workspace.id)))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    },

    /** Revokes one of the caller's keys; another member's key (or none) is 404. Revoking twice is harmless. */
    async revoke(caller: Pick<Caller, 'id' | 'email'>, id: string): Promise<ApiKeySummary> {
      if (!isUuid(id)) throw new NotFound('API key not found.')
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(apiKeys)
          .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
          .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, caller.id)))
          .returning({ ...summary, workspaceId: apiKeys.workspaceId })
        if (!row) throw new NotFound('API key not found.')
        const { workspaceId, ...key } = row
        await activity.record(tx, caller, {
          workspaceId,
          action: 'api_key.revoke',
          targetType: 'api_key',
          targetId: key.id,
          summary: `Revoked the API key ${key.name} (${key.prefix}…)`,
        })
        return key
      })
    },

    /** The member a key belongs to, with the key's id and scopes; null for a malformed, unknown, forged or revoked key. */
    async authenticate(key: string): Promise<AuthenticatedKey | null> {
      const prefix = KEY_PATTERN.exec(key)?.[1]
      if (!prefix) return null
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.prefix, prefix))
      if (!row || row.revokedAt) return null
      const expected = Buffer.from(row.hash, 'hex')
      const given = Buffer.from(sha256(key), 'hex')
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
      const now = Date.now()
      if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
        await db
          .update(apiKeys)
          .set({ lastUsedAt: new Date(now) })
          .where(eq(apiKeys.id, row.id))
      }
      return { userId: row.userId, workspaceId: row.workspaceId, keyId: row.id, scopes: row.scopes }
    },

    /** Whether a key still works (not revoked): an open event stream asks before each delivery. */
    async isActive(keyId: string): Promise<boolean> {
      const [row] = await db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyId))
      return Boolean(row && !row.revokedAt)
    },

    /** Revokes every key of a member (a password change can end them with the sessions); how many. */
    async revokeAll(userId: string): Promise<number> {
      const revoked = await db
        .update(apiKeys)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id })
      return revoked.length
    },
  }
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>
