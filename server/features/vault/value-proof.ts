import { createHash, timingSafeEqual } from 'node:crypto'
import type { Caller } from '#common/auth.ts'
import { Forbidden } from '#common/errors.ts'
import { normalizeTotpSecret, VAULT_VALUE_PROOF_RATE_LIMIT, type VaultSecretKind } from '#common/vault.ts'
import type { Db } from '#server/db/client.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'

/**
 * Proving knowledge of a secret's value (docs/decisions/039, amended), as a password manager asks
 * before it sends a password to another site: only someone who knows the value may widen where
 * it is typed. Part of the vault service (vault.service.ts).
 */

/** Whether two values are the same, in a time that does not depend on where they differ (or on their lengths). */
export function sameValue(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()
  return timingSafeEqual(digest(a), digest(b))
}

/** A value as the vault keeps it: a TOTP key normalised (spaces, lower case, an otpauth:// address), anything else as typed. */
const asKept = (kind: VaultSecretKind, value: string) => (kind === 'totp' ? (normalizeTotpSecret(value) ?? value) : value)

export function createValueProof(deps: { db: Db; audit: Pick<AuditService, 'record'>; rateLimits: Pick<RateLimitService, 'consume'> }) {
  const { db, audit, rateLimits } = deps
  return {
    /**
     * Throws unless `offered` is the secret's current value (`kept`, just unsealed). Every try
     * counts against the secret's limit, whoever makes it (a wrong guess is not free), and a
     * wrong one is written to the workspace's activity. Call it outside a transaction: the
     * refusal's entry must stay.
     */
    async prove(
      caller: Caller,
      secret: { id: string; name: string; kind: VaultSecretKind },
      offered: string,
      kept: () => Promise<string>,
      doing: string,
    ): Promise<void> {
      await rateLimits.consume(`vault-value-proof:${secret.id}`, {
        ...VAULT_VALUE_PROOF_RATE_LIMIT,
        message: `At most ${VAULT_VALUE_PROOF_RATE_LIMIT.limit} tries of the value of ${secret.name} an hour. Please wait and try again.`,
      })
      if (sameValue(asKept(secret.kind, offered), await kept())) return
      await audit.record(db, caller, {
        workspaceId: caller.workspace.id,
        action: 'secret.value.refused',
        targetType: 'secret',
        targetId: secret.id,
        summary: `Tried to ${doing} with a value that is not the current value of ${secret.name} (refused)`,
      })
      const message = `That is not the current value of ${secret.name}: only someone who knows it may ${doing}.`
      throw new Forbidden(message, [{ path: 'value', message }])
    },
  }
}
