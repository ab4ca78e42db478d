import { FieldError } from '#app/components/forms/field-error.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { MAX_SECRET_ORIGINS } from '#common/secret-origins.ts'
import { VAULT_USE_ROLE_NAMES, type VaultUseRole } from '#common/vault.ts'

/** A refusal of the form these fields belong to: which field, and why. */
export interface FieldProblem {
  field?: string
  message: string
}

/**
 * Where a secret may be typed and who may use it (docs/decisions/039): the sites, one per line,
 * and the least role whose automations may use it (up to the member's own). Shared by the form
 * that adds a secret and the one that changes a secret's rules.
 */
export function SecretRulesFields({
  idPrefix,
  origins,
  useRole,
  roleChoices,
  problem,
  onOriginsChange,
}: {
  idPrefix: string
  origins: readonly string[]
  useRole: VaultUseRole
  roleChoices: readonly VaultUseRole[]
  problem?: FieldProblem | null
  /** The sites' text as the member edits it (the form asks for the value when one is new). */
  onOriginsChange?: (text: string) => void
}) {
  const originsId = `${idPrefix}-origins`
  const roleId = `${idPrefix}-role`
  const originsProblem = problem?.field === 'origins' ? problem.message : null
  const roleProblem = problem?.field === 'useRole' ? problem.message : null
  return (
    <>
      <div className="space-y-1.5 sm:col-span-2">
        <Label htmlFor={originsId}>Sites it may be typed on</Label>
        <Textarea
          id={originsId}
          name="origins"
          required
          rows={Math.min(Math.max(origins.length + 1, 2), 6)}
          defaultValue={origins.join('\n')}
          onChange={onOriginsChange ? (event) => onOriginsChange(event.currentTarget.value) : undefined}
          placeholder="https://app.example.com"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          aria-invalid={originsProblem ? true : undefined}
          aria-describedby={`${originsId}-hint${originsProblem ? ` ${originsId}-error` : ''}`}
        />
        <p id={`${originsId}-hint`} className="text-xs text-muted-foreground">
          One site per line (up to {MAX_SECRET_ORIGINS}), such as https://app.example.com. A run types the value only into a field of a page
          on one of these sites, checked as it types; a step may not put it in an address, a header or anything it reads.
        </p>
        <FieldError id={`${originsId}-error`} errors={originsProblem ? [originsProblem] : undefined} />
      </div>
      <div className="space-y-1.5 sm:col-span-2">
        <Label htmlFor={roleId}>Who may use it in their automations</Label>
        <Select
          id={roleId}
          name="useRole"
          defaultValue={useRole}
          aria-invalid={roleProblem ? true : undefined}
          aria-describedby={roleProblem ? `${roleId}-error` : undefined}
        >
          {roleChoices.map((role) => (
            <option key={role} value={role}>
              {VAULT_USE_ROLE_NAMES[role]}
            </option>
          ))}
        </Select>
        <FieldError id={`${roleId}-error`} errors={roleProblem ? [roleProblem] : undefined} />
      </div>
    </>
  )
}
