import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Form } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { VAULT_SECRET_KIND_NAMES, VAULT_USE_ROLE_NAMES, type VaultUseRole } from '#common/vault.ts'
import { normalizeOrigin } from '#common/secret-origins.ts'
import { CurrentValueField } from './current-value-field.tsx'
import { SecretRulesFields } from './secret-rules-fields.tsx'
import type { SecretRow, VaultProblem } from './vault-card.tsx'

/** Whether the sites' text names one the secret does not have yet (then the form asks for its value). */
function addsSite(text: string, origins: readonly string[]): boolean {
  return text
    .split(/[\n,]+/)
    .map((line) => normalizeOrigin(line))
    .some((verdict) => verdict.ok && !origins.includes(verdict.origin))
}

/** One secret of the vault: its placeholder, sites and role; replace its value, change its rules, delete it. */
export function SecretItem({
  secret,
  roleChoices,
  problem,
}: {
  secret: SecretRow
  roleChoices: readonly VaultUseRole[]
  /** The refusal of this secret's rules form or its confirmation, shown on its field (the rules form stays open). */
  problem: VaultProblem | null
}) {
  const rulesProblem = problem?.intent === `secret-rules-${secret.id}` ? problem : null
  const confirmProblem = problem?.intent === `confirm-sites-${secret.id}` ? problem.message : null
  const [open, setOpen] = useState<'replace' | 'rules' | null>(rulesProblem ? 'rules' : null)
  // The sites' text as edited (null: untouched); a site it names that the secret lacks asks for the value.
  const [originsText, setOriginsText] = useState<string | null>(null)
  const adding = originsText !== null && addsSite(originsText, secret.origins)
  // A form opened again starts from the secret's sites.
  const show = (which: 'replace' | 'rules' | null) => {
    setOriginsText(null)
    setOpen(which)
  }
  const toggle = (which: 'replace' | 'rules') => show(open === which ? null : which)
  const rulesId = `rules-${secret.id}`
  return (
    <li className="space-y-3 p-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            <span className="truncate">{secret.name}</span>
            <Badge variant="secondary">{VAULT_SECRET_KIND_NAMES[secret.kind]}</Badge>
            {secret.originsSetFromSteps ? <Badge variant="outline">Sites set from your automations: confirm them</Badge> : null}
          </p>
          <p className="text-xs text-muted-foreground">
            <code className="font-mono">{secret.placeholder}</code> · changed {secret.updatedLabel}
          </p>
          <p className="text-xs break-words">
            {secret.origins.length > 0 ? (
              <>
                Typed only on <span className="font-mono">{secret.origins.join(', ')}</span>
              </>
            ) : (
              <span className="text-destructive">No site yet: automations cannot use it until you name one.</span>
            )}
          </p>
          <p className="text-xs text-muted-foreground">Used by: {VAULT_USE_ROLE_NAMES[secret.useRole].toLowerCase()}</p>
        </div>
        {secret.canChange ? (
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              aria-expanded={open === 'rules'}
              aria-controls={open === 'rules' ? rulesId : undefined}
              aria-label={`Sites and roles of ${secret.name}`}
              onClick={() => toggle('rules')}
            >
              Sites and roles
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              aria-expanded={open === 'replace'}
              aria-label={`Replace ${secret.name}`}
              onClick={() => toggle('replace')}
            >
              Replace
            </Button>
            <ConfirmAction
              label={
                <>
                  <Trash2 aria-hidden="true" />
                  Delete
                </>
              }
              triggerProps={{ variant: 'outline', size: 'sm', 'aria-label': `Delete ${secret.name}` }}
              title={`Delete "${secret.name}"?`}
              description={`Automations whose steps use ${secret.placeholder} fail at that step until a secret of that name is added again.`}
              confirmLabel="Delete Secret"
              fields={{ intent: 'delete-secret', id: secret.id }}
              destructive
            />
          </div>
        ) : null}
      </div>
      {secret.canChange && secret.originsSetFromSteps && open !== 'rules' ? (
        <Form method="post" className="grid gap-2 sm:grid-cols-2" autoComplete="off">
          <input type="hidden" name="intent" value={`confirm-sites-${secret.id}`} />
          <CurrentValueField
            id={`confirm-${secret.id}`}
            secretName={secret.name}
            hint={`Only someone who knows the value may vouch for these sites. ${
              secret.unconfirmedLapsed
                ? `Unconfirmed, they stopped working on ${secret.unconfirmedUntilLabel ?? 'their 30th day'}: runs do not type the value until they are confirmed.`
                : `Unconfirmed, they work until ${secret.unconfirmedUntilLabel ?? 'their 30th day'}.`
            }`}
            error={confirmProblem}
            required
          />
          <div className="sm:col-span-2">
            <Button type="submit" size="sm" variant="secondary" aria-label={`The sites of ${secret.name} are right`}>
              These sites are right
            </Button>
          </div>
        </Form>
      ) : null}
      {open === 'rules' ? (
        <Form method="post" id={rulesId} className="grid gap-3 sm:grid-cols-2" autoComplete="off">
          <input type="hidden" name="intent" value={`secret-rules-${secret.id}`} />
          <SecretRulesFields
            idPrefix={rulesId}
            origins={secret.origins}
            useRole={secret.useRole}
            roleChoices={roleChoices}
            problem={rulesProblem}
            onOriginsChange={setOriginsText}
          />
          {adding || rulesProblem?.field === 'value' ? (
            <CurrentValueField
              id={`${rulesId}-value`}
              secretName={secret.name}
              hint="A new site gets the value only from someone who knows it. Removing a site or changing the role needs no value."
              error={rulesProblem?.field === 'value' ? rulesProblem.message : null}
            />
          ) : null}
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit" size="sm">
              Save sites and roles
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => show(null)}>
              Cancel
            </Button>
          </div>
        </Form>
      ) : null}
      {open === 'replace' ? (
        <Form method="post" className="flex gap-2" autoComplete="off" onSubmit={() => setOpen(null)}>
          <input type="hidden" name="intent" value="replace-secret" />
          <input type="hidden" name="id" value={secret.id} />
          <Label htmlFor={`replace-${secret.id}`} className="sr-only">
            New value of {secret.name}
          </Label>
          <Input id={`replace-${secret.id}`} name="value" type="password" required autoComplete="new-password" placeholder="New value" />
          <Button type="submit" size="sm">
            Save
          </Button>
        </Form>
      ) : null}
    </li>
  )
}
