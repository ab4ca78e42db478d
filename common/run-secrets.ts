import type { AutomationStep } from './automation-steps.ts'
import { fillRunStep, type RunInputs, type RunScope } from './run-inputs.ts'
import { hideValues, isVaultPlaceholder, placeholdersOf, type Placeholder } from './step-placeholders.ts'
import { unconfirmedSitesLapsed, VAULT_USE_ROLE_WHO, type VaultSecretKind, type VaultUseRole } from './vault.ts'
import { hasRole, WORKSPACE_ROLE_NAMES, type WorkspaceRole } from './workspaces.ts'
import type { SecretTyping } from './secret-typing.ts'
import { totpCode } from './totp-code.ts'

/** A code this close to the end of its 30-second window may expire before the site checks it: wait for the next. */
const TOTP_MARGIN_MS = 3_000
const TOTP_PERIOD_MS = 30_000

/** A vault value as a run reads it: what it is, and where and by whom it may be used (docs/decisions/039). */
export interface SecretForRun {
  kind: VaultSecretKind
  value: string
  origins: readonly string[]
  useRole: VaultUseRole
  /** Set while its sites are the ones migration 0023 took from the automations, unconfirmed (docs/decisions/039, amended). */
  originsFromStepsAt: Date | null
}

/**
 * What a run knows of the vault (docs/decisions/025, 039): the values its steps name, read once
 * when it starts, filled into each step just before it runs, together with the run's inputs, in
 * one pass (a value is never read for placeholders again). Everything the run writes down goes
 * through `hide`, which puts the placeholder back where a value (or a one-time code it made) shows.
 */
export interface RunSecrets {
  /**
   * The step with its placeholders filled: `{{input.x}}` from `inputs` (null: the steps came with
   * their inputs filled, as a client runner receives them), `{{secrets.x}}` and `{{totp.x}}` from
   * the vault. `missing` lists those without a value; `typing` says where the step's vault values
   * may be typed (null when it types none).
   */
  fill(
    step: AutomationStep,
    inputs: RunInputs | null,
    /** The data row and kept values the step runs with (docs/decisions/046). */
    scope?: RunScope,
  ): Promise<{ step: AutomationStep; missing: Placeholder[]; typing: Required<SecretTyping> | null }>
  /** The text with every value the run used replaced by its placeholder. */
  hide(text: string): string
  /** Value -> placeholder, for what is hidden from a model (it grows as one-time codes are made). */
  readonly hidden: ReadonlyMap<string, string>
  /** A secret the run's starter may not use (their role is below the secret's setting): the run fails at that step. */
  readonly refusal: { index: number; message: string } | null
}

/** Fills a run's inputs only: its steps name no vault value (a vault placeholder is then missing). */
export function withoutVault(): RunSecrets {
  return {
    fill: (step, inputs, scope) => Promise.resolve({ ...fillRunStep(step, inputs, () => undefined, scope), typing: null }),
    hide: (text) => text,
    hidden: new Map(),
    refusal: null,
  }
}

const withArticle = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`

export async function runSecrets(
  vault: { valuesFor(workspaceId: string, names: readonly string[]): Promise<Map<string, SecretForRun>> },
  run: { workspaceId: string; steps: readonly AutomationStep[]; starterRole: WorkspaceRole | null },
  now: () => number = Date.now,
): Promise<RunSecrets> {
  const named = placeholdersOf(run.steps).filter(isVaultPlaceholder)
  if (named.length === 0) return withoutVault()
  const values = await vault.valuesFor(run.workspaceId, [...new Set(named.map((placeholder) => placeholder.name))])
  const hidden = new Map<string, string>()
  for (const [name, secret] of values) {
    hidden.set(secret.value, secret.kind === 'totp' ? `{{totp.${name}}}` : `{{secrets.${name}}}`)
  }

  async function codeOf(secret: string, name: string): Promise<string> {
    const left = TOTP_PERIOD_MS - (now() % TOTP_PERIOD_MS)
    if (left < TOTP_MARGIN_MS) await new Promise((resolve) => setTimeout(resolve, left + 50))
    const code = await totpCode(secret, now())
    hidden.set(code, `{{totp.${name}}}`)
    return code
  }

  /** The first step naming a secret the run's starter may not use, as the run's refusal. */
  function refusalOf(): RunSecrets['refusal'] {
    for (const [index, step] of run.steps.entries()) {
      for (const placeholder of placeholdersOf([step]).filter(isVaultPlaceholder)) {
        const secret = values.get(placeholder.name)
        if (!secret || (run.starterRole && hasRole(run.starterRole, secret.useRole))) continue
        const starter = run.starterRole
          ? `the run was started by ${withArticle(WORKSPACE_ROLE_NAMES[run.starterRole].toLowerCase())}`
          : 'the run was started by nobody in this workspace now'
        return {
          index,
          message: `${placeholder.text} may be used only by ${VAULT_USE_ROLE_WHO[secret.useRole]} in their automations, and ${starter}; the value was not typed`,
        }
      }
    }
    return null
  }

  return {
    hidden,
    hide: (text) => hideValues(text, hidden),
    refusal: refusalOf(),
    async fill(step, inputs, scope) {
      const typed = placeholdersOf([step]).filter(isVaultPlaceholder)
      const codes = new Map<string, string>()
      for (const placeholder of typed) {
        const secret = values.get(placeholder.name)
        if (placeholder.kind === 'totp' && secret?.kind === 'totp')
          codes.set(placeholder.name, await codeOf(secret.value, placeholder.name))
      }
      const result = fillRunStep(
        step,
        inputs,
        (placeholder) => {
          const secret = values.get(placeholder.name)
          // Only ever typed into a field (the executor refuses the run before any other step; this holds anyway).
          if (!secret || step.type !== 'type') return undefined
          // A TOTP secret is typed only as its current code; a password never as a code.
          if (placeholder.kind === 'totp') return codes.get(placeholder.name)
          return secret.kind === 'totp' ? undefined : secret.value
        },
        scope,
      )
      if (typed.length === 0) return { ...result, typing: null }
      const unconfirmed = typed
        .filter((placeholder) => unconfirmedSitesLapsed(values.get(placeholder.name)?.originsFromStepsAt ?? null, now()))
        .map((placeholder) => placeholder.text)
      const origins = typed
        .map((placeholder) => values.get(placeholder.name)?.origins ?? [])
        .reduce<string[]>(
          (common, each) => common.filter((origin) => each.includes(origin)),
          [...(values.get(typed[0]?.name ?? '')?.origins ?? [])],
        )
      return { ...result, typing: { placeholders: typed.map((placeholder) => placeholder.text), origins, unconfirmed } }
    },
  }
}
