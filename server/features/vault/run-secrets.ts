import { setTimeout as sleep } from 'node:timers/promises'
import type { AutomationStep } from '#common/automation-steps.ts'
import { fillStep, hideValues, placeholdersOf, type Placeholder } from '#common/step-placeholders.ts'
import { totpCode } from './totp.ts'
import type { VaultService } from './vault.service.ts'

/** A code this close to the end of its 30-second window may expire before the site checks it: wait for the next. */
const TOTP_MARGIN_MS = 3_000
const TOTP_PERIOD_MS = 30_000

/**
 * What a cloud run knows of the vault (docs/decisions/025): the values its steps name, read once
 * when it starts, filled into each step just before it runs. Everything the run writes down goes
 * through `hide`, which puts the placeholder back where a value (or a one-time code it made) shows.
 */
export interface RunSecrets {
  /** The step with `{{secrets.x}}` and `{{totp.x}}` filled; `missing` lists those the vault lacks. */
  fill(step: AutomationStep): Promise<{ step: AutomationStep; missing: Placeholder[]; filled: boolean }>
  /** The text with every value the run used replaced by its placeholder. */
  hide(text: string): string
  /** Value -> placeholder, for what is hidden from a model (it grows as one-time codes are made). */
  readonly hidden: ReadonlyMap<string, string>
}

/** A run whose steps name no secret: nothing to fill or hide. */
export const NO_SECRETS: RunSecrets = {
  fill: (step) => Promise.resolve({ step, missing: [], filled: false }),
  hide: (text) => text,
  hidden: new Map(),
}

export async function runSecrets(
  vault: Pick<VaultService, 'valuesFor'>,
  workspaceId: string,
  steps: readonly AutomationStep[],
  now: () => number = Date.now,
): Promise<RunSecrets> {
  const named = placeholdersOf(steps).filter((placeholder) => placeholder.kind !== 'input')
  if (named.length === 0) return NO_SECRETS
  const values = await vault.valuesFor(workspaceId, [...new Set(named.map((placeholder) => placeholder.name))])
  const hidden = new Map<string, string>()
  for (const [name, secret] of values) {
    hidden.set(secret.value, secret.kind === 'totp' ? `{{totp.${name}}}` : `{{secrets.${name}}}`)
  }

  async function codeOf(secret: string, name: string): Promise<string> {
    const left = TOTP_PERIOD_MS - (now() % TOTP_PERIOD_MS)
    if (left < TOTP_MARGIN_MS) await sleep(left + 50)
    const code = totpCode(secret, now())
    hidden.set(code, `{{totp.${name}}}`)
    return code
  }

  return {
    hidden,
    hide: (text) => hideValues(text, hidden),
    async fill(step) {
      const wanted = placeholdersOf([step]).filter((placeholder) => placeholder.kind !== 'input')
      if (wanted.length === 0) return { step, missing: [], filled: false }
      const codes = new Map<string, string>()
      for (const placeholder of wanted) {
        const secret = values.get(placeholder.name)
        if (placeholder.kind === 'totp' && secret?.kind === 'totp')
          codes.set(placeholder.name, await codeOf(secret.value, placeholder.name))
      }
      const result = fillStep(step, (placeholder) => {
        if (placeholder.kind === 'input') return undefined
        const secret = values.get(placeholder.name)
        if (!secret) return undefined
        // A TOTP secret is typed only as its current code; a password never as a code.
        if (placeholder.kind === 'totp') return codes.get(placeholder.name)
        return secret.kind === 'totp' ? undefined : secret.value
      })
      const missing = result.missing.filter((placeholder) => placeholder.kind !== 'input')
      return { step: result.step, missing, filled: missing.length < wanted.length }
    },
  }
}
