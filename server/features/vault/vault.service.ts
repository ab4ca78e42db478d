// A workspace's credential vault (docs/decisions/025), with where and by whom each secret may be
// used (docs/decisions/039); its parts are kept-sessions.ts (sealed browser sessions),
// secret-use.ts (the role rules) and value-proof.ts (knowing the value before a site is added).
// Over 300 lines: every secret is sealed with the workspace's data key, whose wrapping and
// rotation live here and nowhere else, and every change of a secret passes the same checks beside
// the operations that call them.
import { randomUUID } from 'node:crypto'
import { and, asc, count, eq, ne } from 'drizzle-orm'
import type { Caller } from '#common/auth.ts'
import { Conflict, LimitReached, NotFound, ValidationError } from '#common/errors.ts'
import { isUuid } from '#common/ids.ts'
import {
  ADD_SITE_NEEDS_VALUE,
  normalizeTotpSecret,
  VAULT_USE_ROLE_WHO,
  type VaultSecretCreate,
  type VaultSecretKind,
  type VaultSecretRules,
  type VaultUseRole,
} from '#common/vault.ts'
import { requireWorkspaceRole } from '#common/workspaces.ts'
import type { Db, DbOrTx } from '#server/db/client.ts'
import { isUniqueViolation } from '#server/db/errors.ts'
import { vaultKeys, vaultSecrets, workspaces } from '#server/db/schema/index.ts'
import type { AuditService } from '#server/features/audit/audit.service.ts'
import type { PlanService } from '#server/features/plans/plan.service.ts'
import type { RateLimitService } from '#server/features/rate-limit/rate-limit.service.ts'
import type { AutomationStep } from '#common/automation-steps.ts'
import { createKeptSessions } from './kept-sessions.ts'
import { runSecrets, type RunSecrets, type SecretForRun } from '#common/run-secrets.ts'
import { createSecretUse } from './secret-use.ts'
import { createValueProof } from './value-proof.ts'
import { contexts, defaultVaultKey, newDataKey, open, seal, wrappingKeyFrom, type WrappingKey } from './vault-crypto.ts'

/** A secret as anyone may see it: never its value. */
export interface VaultSecretSummary {
  id: string
  name: string
  kind: VaultSecretKind
  /** The sites it may be typed on (docs/decisions/039); empty: nowhere yet. */
  origins: string[]
  /** The least workspace role whose automations may use it. */
  useRole: VaultUseRole
  /**
   * Set when migration 0023 took the origins from the automations: they work for
   * UNCONFIRMED_SITES_DAYS, and the member is asked to confirm them, with the value, until then.
   */
  originsFromStepsAt: Date | null
  createdAt: Date
  updatedAt: Date
}

/** What an automation's check needs to know of a secret its steps name. */
export interface SecretRule {
  kind: VaultSecretKind
  origins: readonly string[]
  useRole: VaultUseRole
  /** Set while its sites are the ones migration 0023 took from the automations and nobody who knows the value confirmed them. */
  originsFromStepsAt: Date | null
}

/** The keys that may wrap data keys: the current one (new and re-wrapped keys) and, during a rotation, the one before. */
export interface VaultKeyring {
  current: WrappingKey
  previous: WrappingKey | null
}

/**
 * VAULT_KEY (and VAULT_KEY_PREVIOUS during a rotation); without it, a key derived from the auth
 * secret (development, tests, single-process installs: README "Credential vault").
 */
export function vaultKeyring(options: { vaultKey?: string; previousVaultKey?: string; authSecret: string }): VaultKeyring {
  return {
    current: wrappingKeyFrom(options.vaultKey ?? defaultVaultKey(options.authSecret)),
    previous: options.previousVaultKey ? wrappingKeyFrom(options.previousVaultKey) : null,
  }
}

/** A data key wrapped under a vault key this server does not have: a configuration error, said plainly. */
export class VaultKeyMissing extends Error {}

const summaryColumns = {
  id: vaultSecrets.id,
  name: vaultSecrets.name,
  kind: vaultSecrets.kind,
  origins: vaultSecrets.origins,
  useRole: vaultSecrets.useRole,
  originsFromStepsAt: vaultSecrets.originsFromStepsAt,
  createdAt: vaultSecrets.createdAt,
  updatedAt: vaultSecrets.updatedAt,
}

/**
 * A workspace's credential vault (docs/decisions/025): named secrets sealed with the workspace's
 * data key, which is kept wrapped under the vault key. Values go in (create, replace) and come out
 * only for a cloud run (`valuesFor`); no answer of the service's front doors ever holds one.
 * Everyone in the workspace sees the names; members and above change them, except a secret kept
 * for a higher role (`useRole`), which only that role changes (docs/decisions/039).
 */
export function createVaultService(deps: {
  db: Db
  audit: Pick<AuditService, 'record'>
  plans: Pick<PlanService, 'allowancesOf' | 'cheapestWithLargerVault'>
  keyring: VaultKeyring
  /** Counts tries of a secret's value (value-proof.ts). */
  rateLimits: Pick<RateLimitService, 'consume'>
}) {
  const { db, audit, plans, keyring, rateLimits } = deps

  function wrappingKey(fingerprint: string): WrappingKey {
    if (fingerprint === keyring.current.fingerprint) return keyring.current
    if (fingerprint === keyring.previous?.fingerprint) return keyring.previous
    throw new VaultKeyMissing(
      'The vault key that protects this workspace’s secrets is not configured: set VAULT_KEY (or VAULT_KEY_PREVIOUS during a rotation) to it.',
    )
  }

  /** The workspace's data key, made on first use (two first uses at once agree on one). */
  async function dataKey(workspaceId: string, tx: DbOrTx = db): Promise<Buffer> {
    let [row] = await tx.select().from(vaultKeys).where(eq(vaultKeys.workspaceId, workspaceId))
    if (!row) {
      const wrappedKey = seal(keyring.current.key, newDataKey(), contexts.dataKey(workspaceId))
      await tx.insert(vaultKeys).values({ workspaceId, wrappedKey, keyFingerprint: keyring.current.fingerprint }).onConflictDoNothing()
      ;[row] = await tx.select().from(vaultKeys).where(eq(vaultKeys.workspaceId, workspaceId))
      if (!row) throw new NotFound('Workspace not found')
    }
    return open(wrappingKey(row.keyFingerprint).key, row.wrappedKey, contexts.dataKey(workspaceId))
  }

  const requireMember = (caller: Caller) => requireWorkspaceRole(caller.workspace.role, 'member', 'Changing the vault')
  const use = createSecretUse(db)
  const proof = createValueProof({ db, audit, rateLimits })
  const { requireUseRole } = use

  async function ownSecret(tx: DbOrTx, caller: Caller, id: string) {
    // An id that is no UUID (a page's form sends what it is given) is as unknown as a missing one.
    if (!isUuid(id)) throw new NotFound('Secret not found')
    const [row] = await tx
      .select()
      .from(vaultSecrets)
      .where(and(eq(vaultSecrets.id, id), eq(vaultSecrets.workspaceId, caller.workspace.id)))
    // Another workspace's secret is as unknown as a missing one.
    if (!row) throw new NotFound('Secret not found')
    return row
  }

  function checkedValue(kind: VaultSecretKind, value: string): string {
    if (kind !== 'totp') return value
    const secret = normalizeTotpSecret(value)
    if (secret) return secret
    const message =
      'A TOTP secret is the base32 key an authenticator app is given (at least 16 letters A–Z and digits 2–7), or its otpauth:// address.'
    throw new ValidationError(message, [{ path: 'value', message }])
  }

  /** A secret's value, unsealed (to compare with one offered as proof, or to type in a run). */
  async function valueOf(row: { id: string; workspaceId: string; sealedValue: string }): Promise<string> {
    return open(await dataKey(row.workspaceId), row.sealedValue, contexts.secret(row.workspaceId, row.id)).toString('utf8')
  }

  const needsValue = (message: string) => new ValidationError(message, [{ path: 'value', message }])

  async function valuesFor(workspaceId: string, names: readonly string[]): Promise<Map<string, SecretForRun>> {
    const values = new Map<string, SecretForRun>()
    if (names.length === 0) return values
    const rows = await db.select().from(vaultSecrets).where(eq(vaultSecrets.workspaceId, workspaceId))
    const wanted = rows.filter((row) => names.includes(row.name))
    if (wanted.length === 0) return values
    const key = await dataKey(workspaceId)
    for (const row of wanted) {
      values.set(row.name, {
        kind: row.kind,
        value: open(key, row.sealedValue, contexts.secret(workspaceId, row.id)).toString('utf8'),
        origins: row.origins,
        useRole: row.useRole,
        originsFromStepsAt: row.originsFromStepsAt,
      })
    }
    return values
  }

  return {
    /**
     * The values of the named secrets, for a cloud run about to type them (the only way a value
     * leaves the vault). Names the vault does not hold are absent from the answer.
     */
    valuesFor,

    /**
     * What a cloud run of these steps fills and hides (run-secrets.ts), and whether the member
     * who started it may still use the secrets it names (their role now, docs/decisions/039).
     */
    async forRun(run: { workspaceId: string; userId: string | null; steps: readonly AutomationStep[] }): Promise<RunSecrets> {
      return runSecrets({ valuesFor }, { ...run, starterRole: await use.roleOf(run.workspaceId, run.userId) })
    },

    /** Refuses (403, naming the step) a run of secrets its starter may not use (secret-use.ts). */
    checkUse: use.checkUse,

    /** A person's role in the workspace now (null: not in it, or nobody). */
    roleOf: use.roleOf,

    async list(workspaceId: string): Promise<VaultSecretSummary[]> {
      return db.select(summaryColumns).from(vaultSecrets).where(eq(vaultSecrets.workspaceId, workspaceId)).orderBy(asc(vaultSecrets.name))
    },

    /** The names the workspace's steps may use, with their kinds, sites and roles (for checking an automation's steps). */
    async rulesByName(workspaceId: string): Promise<Map<string, SecretRule>> {
      const rows = await db
        .select({
          name: vaultSecrets.name,
          kind: vaultSecrets.kind,
          origins: vaultSecrets.origins,
          useRole: vaultSecrets.useRole,
          originsFromStepsAt: vaultSecrets.originsFromStepsAt,
        })
        .from(vaultSecrets)
        .where(eq(vaultSecrets.workspaceId, workspaceId))
      return new Map(rows.map(({ name, ...rule }) => [name, rule]))
    },

    /** Adds a secret; refused past the plan's vault size, naming the plan with a larger vault. */
    async create(caller: Caller, input: VaultSecretCreate): Promise<VaultSecretSummary> {
      requireMember(caller)
      requireUseRole(caller, input.useRole, 'Keeping a secret for ' + VAULT_USE_ROLE_WHO[input.useRole])
      const workspaceId = caller.workspace.id
      const value = checkedValue(input.kind, input.value)
      return db
        .transaction(async (tx) => {
          // One addition at a time per workspace: two at once cannot pass the plan's size together.
          await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update')
          const allowances = await plans.allowancesOf(workspaceId, tx)
          const [held] = await tx.select({ n: count() }).from(vaultSecrets).where(eq(vaultSecrets.workspaceId, workspaceId))
          const n = held?.n ?? 0
          if (allowances.vaultSecrets !== null && n >= allowances.vaultSecrets) {
            const larger = await plans.cheapestWithLargerVault(allowances.vaultSecrets, tx)
            const limit = allowances.vaultSecrets
            const holds = limit === 0 ? 'has no credential vault' : `holds up to ${limit} secret${limit === 1 ? '' : 's'} in the vault`
            throw new LimitReached(
              larger
                ? `The ${allowances.plan} plan ${holds}. The ${larger.name} plan holds more: upgrade, or delete a secret first.`
                : `The ${allowances.plan} plan ${holds}; delete a secret first.`,
              'PLAN_LIMIT',
            )
          }
          const id = randomUUID()
          const sealedValue = seal(await dataKey(workspaceId, tx), value, contexts.secret(workspaceId, id))
          const [row] = await tx
            .insert(vaultSecrets)
            .values({
              id,
              workspaceId,
              name: input.name,
              kind: input.kind,
              sealedValue,
              origins: input.origins,
              useRole: input.useRole,
              createdBy: caller.id || null,
            })
            .returning(summaryColumns)
          if (!row) throw new Error('vault secret insert returned nothing')
          await audit.record(tx, caller, {
            workspaceId,
            action: 'secret.create',
            targetType: 'secret',
            targetId: id,
            summary: `Added the secret ${input.name} to the vault, for ${input.origins.join(', ')} (used by ${VAULT_USE_ROLE_WHO[input.useRole]})`,
            after: { origins: input.origins, useRole: input.useRole },
          })
          return row
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error))
            throw new Conflict(`The vault already holds a secret named ${input.name}: replace its value instead.`)
          throw error
        })
    },

    /** A new value for a secret; its name and kind stay. */
    async replace(caller: Caller, id: string, newValue: string): Promise<VaultSecretSummary> {
      requireMember(caller)
      const workspaceId = caller.workspace.id
      return db.transaction(async (tx) => {
        const current = await ownSecret(tx, caller, id)
        requireUseRole(caller, current.useRole, `Replacing ${current.name}`)
        const value = checkedValue(current.kind, newValue)
        const sealedValue = seal(await dataKey(workspaceId, tx), value, contexts.secret(workspaceId, id))
        const [row] = await tx
          .update(vaultSecrets)
          .set({ sealedValue, updatedAt: new Date() })
          .where(eq(vaultSecrets.id, id))
          .returning(summaryColumns)
        if (!row) throw new NotFound('Secret not found')
        await audit.record(tx, caller, {
          workspaceId,
          action: 'secret.replace',
          targetType: 'secret',
          targetId: id,
          summary: `Replaced the value of the secret ${current.name}`,
        })
        return row
      })
    },

    /**
     * Where a secret may be typed and who may use it (docs/decisions/039). Adding a site (an
     * origin not in its list) needs the secret's current value in `rules.value`, checked after
     * unsealing; removing sites and changing the role need only the right to change the secret.
     * A right value also confirms sites set from the automations (docs/decisions/039, amended).
     */
    async setRules(caller: Caller, id: string, rules: VaultSecretRules): Promise<VaultSecretSummary> {
      requireMember(caller)
      const before = await ownSecret(db, caller, id)
      requireUseRole(caller, before.useRole, `Changing where ${before.name} may be used`)
      if (rules.useRole) requireUseRole(caller, rules.useRole, 'Keeping a secret for ' + VAULT_USE_ROLE_WHO[rules.useRole])
      const added = (list: readonly string[]) => (rules.origins ?? []).filter((origin) => !list.includes(origin))
      if (rules.value === undefined && added(before.origins).length > 0) throw needsValue(ADD_SITE_NEEDS_VALUE)
      // Outside the transaction: a refused try is counted and written down even though nothing changes.
      if (rules.value !== undefined)
        await proof.prove(caller, before, rules.value, () => valueOf(before), `change where ${before.name} may be typed`)
      return db.transaction(async (tx) => {
        const [current] = await tx.select().from(vaultSecrets).where(eq(vaultSecrets.id, before.id)).for('update')
        if (!current) throw new NotFound('Secret not found')
        // What was proven or compared is what is saved over: a change in between is seen, not undone.
        if (rules.value !== undefined && current.sealedValue !== before.sealedValue)
          throw new Conflict(`The value of ${current.name} was replaced a moment ago: enter its new value and save again.`)
        if (rules.value === undefined && added(current.origins).length > 0) throw needsValue(ADD_SITE_NEEDS_VALUE)
        requireUseRole(caller, current.useRole, `Changing where ${current.name} may be used`)
        const origins = rules.origins ?? current.origins
        const useRole = rules.useRole ?? current.useRole
        // Sites set from the automations stay unconfirmed until someone who knows the value saves them.
        const originsFromStepsAt = rules.value !== undefined ? null : current.originsFromStepsAt
        const [row] = await tx
          .update(vaultSecrets)
          .set({ origins, useRole, originsFromStepsAt, updatedAt: new Date() })
          .where(eq(vaultSecrets.id, id))
          .returning(summaryColumns)
        if (!row) throw new NotFound('Secret not found')
        await audit.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: 'secret.rules',
          targetType: 'secret',
          targetId: id,
          summary: `Set where ${current.name} may be typed (${origins.join(', ')}) and who may use it (${VAULT_USE_ROLE_WHO[useRole]})${
            current.originsFromStepsAt && !originsFromStepsAt ? ', confirming the sites set from the automations' : ''
          }`,
          before: { origins: current.origins, useRole: current.useRole },
          after: { origins, useRole },
        })
        return row
      })
    },

    async remove(caller: Caller, id: string): Promise<void> {
      requireMember(caller)
      await db.transaction(async (tx) => {
        const current = await ownSecret(tx, caller, id)
        requireUseRole(caller, current.useRole, `Deleting ${current.name}`)
        await tx.delete(vaultSecrets).where(eq(vaultSecrets.id, id))
        await audit.record(tx, caller, {
          workspaceId: caller.workspace.id,
          action: 'secret.delete',
          targetType: 'secret',
          targetId: id,
          summary: `Deleted the secret ${current.name} from the vault`,
        })
      })
    },

    /**
     * Rotation (docs/decisions/025): re-wraps every data key that is not under the current vault
     * key (VAULT_KEY), reading it with VAULT_KEY_PREVIOUS. Secrets and sessions stay as they are.
     * Safe to run again; answers how many keys it re-wrapped.
     */
    async rewrapDataKeys(): Promise<number> {
      const stale = await db
        .select({ workspaceId: vaultKeys.workspaceId })
        .from(vaultKeys)
        .where(ne(vaultKeys.keyFingerprint, keyring.current.fingerprint))
      let rewrapped = 0
      for (const { workspaceId } of stale) {
        await db.transaction(async (tx) => {
          const [row] = await tx.select().from(vaultKeys).where(eq(vaultKeys.workspaceId, workspaceId)).for('update')
          if (!row || row.keyFingerprint === keyring.current.fingerprint) return
          const plain = open(wrappingKey(row.keyFingerprint).key, row.wrappedKey, contexts.dataKey(workspaceId))
          await tx
            .update(vaultKeys)
            .set({
              wrappedKey: seal(keyring.current.key, plain, contexts.dataKey(workspaceId)),
              keyFingerprint: keyring.current.fingerprint,
              rotatedAt: new Date(),
            })
            .where(eq(vaultKeys.workspaceId, workspaceId))
          rewrapped += 1
        })
      }
      return rewrapped
    },

    ...createKeptSessions({ db, audit, dataKey }),
  }
}

export type VaultService = ReturnType<typeof createVaultService>
