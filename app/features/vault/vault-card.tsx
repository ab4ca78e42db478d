import { KeySquare } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import {
  UNCONFIRMED_SITES_DAYS,
  VAULT_SECRET_KIND_NAMES,
  VAULT_SECRET_KINDS,
  type VaultSecretKind,
  type VaultUseRole,
} from '#common/vault.ts'
import { SecretItem } from './secret-item.tsx'
import { SecretRulesFields, type FieldProblem } from './secret-rules-fields.tsx'

export interface SecretRow {
  id: string
  name: string
  kind: VaultSecretKind
  placeholder: string
  updatedLabel: string
  /** The sites it may be typed on (docs/decisions/039); empty: nowhere yet. */
  origins: string[]
  useRole: VaultUseRole
  /** Its origins were taken from the automations that type it (migration 0023) and nobody who knows the value has confirmed them. */
  originsSetFromSteps: boolean
  /** Until when those unconfirmed sites work ('Dec 28, 2026'); null once confirmed. */
  unconfirmedUntilLabel: string | null
  /** That date has passed: runs no longer type the value until the sites are confirmed. */
  unconfirmedLapsed: boolean
  /** Whether this member may change it: members and above, and the secret's own role. */
  canChange: boolean
}

export interface VaultView {
  workspaceName: string
  secrets: SecretRow[]
  /** Members and above change the vault; viewers see the names. */
  canChange: boolean
  /** The roles this member may keep a secret for: up to their own. */
  roleChoices: VaultUseRole[]
  /** How many secrets the plan's vault holds (null: no limit), and the plan's name. */
  limit: number | null
  planName: string
}

/** A refused form of the page: which one ('add-secret', 'secret-rules-<id>', 'confirm-sites-<id>'), which field, and why. */
export interface VaultProblem extends FieldProblem {
  intent: string
}

/** The workspace's credential vault (docs/decisions/025, 039): add, replace, bind to sites and roles, delete; values never come back. */
export function VaultCard({ view, formKey, problem }: { view: VaultView; formKey: number; problem?: VaultProblem | null }) {
  const navigation = useNavigation()
  const adding = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'add-secret'
  const full = view.limit !== null && view.secrets.length >= view.limit
  const addProblem = problem?.intent === 'add-secret' ? problem : null
  const fieldProblem = (field: string) => (addProblem?.field === field ? addProblem.message : null)
  const toCheck = view.secrets.filter((secret) => secret.originsSetFromSteps)
  const siteless = view.secrets.filter((secret) => secret.origins.length === 0)
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Secrets in {view.workspaceName}</CardTitle>
        <CardDescription>
          Sign-in names, passwords, one-time code keys and other values your cloud runs type into the sites you name, as a password manager
          would. Steps name them in the text they type, for example <code className="font-mono text-xs">{'{{secrets.shop_password}}'}</code>{' '}
          or <code className="font-mono text-xs">{'{{totp.shop}}'}</code> for the current one-time code. A saved value is never shown again,
          never written to a run&apos;s log and never sent to an AI model.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {toCheck.length > 0 ? (
          <div role="status" className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm">
            <p className="font-medium">Check where your secrets may be typed</p>
            <p>
              Secrets are now typed only on the sites they name. We set the sites of {toCheck.map((secret) => secret.name).join(', ')} from
              the pages your automations type {toCheck.length === 1 ? 'it' : 'them'} on. Someone who knows the value confirms them below
              (enter it and choose <strong>These sites are right</strong>), removes a site that is wrong, or adds one a sign-in moves to.
              Unconfirmed sites work for {UNCONFIRMED_SITES_DAYS} days after they were set; then runs stop typing the value until they are
              confirmed.
            </p>
          </div>
        ) : null}
        {siteless.length > 0 ? (
          <div role="status" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
            {siteless.map((secret) => secret.name).join(', ')} {siteless.length === 1 ? 'names' : 'name'} no site yet: no automation can use{' '}
            {siteless.length === 1 ? 'it' : 'them'} until you name the sites {siteless.length === 1 ? 'it' : 'they'} may be typed on.
          </div>
        ) : null}
        {view.canChange ? (
          <Form method="post" key={formKey} className="grid gap-3 sm:grid-cols-[1fr_1fr]" autoComplete="off">
            <input type="hidden" name="intent" value="add-secret" />
            <div className="space-y-1.5">
              <Label htmlFor="secret-name">Name</Label>
              <Input
                id="secret-name"
                name="name"
                required
                maxLength={64}
                placeholder="shop_password"
                pattern="[A-Za-z_][A-Za-z0-9_]*"
                autoCapitalize="off"
                aria-invalid={fieldProblem('name') ? true : undefined}
                aria-describedby={fieldProblem('name') ? 'secret-name-error' : undefined}
              />
              <FieldError id="secret-name-error" errors={fieldProblem('name') ? [fieldProblem('name') ?? ''] : undefined} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="secret-kind">Kind</Label>
              <Select id="secret-kind" name="kind" defaultValue="password">
                {VAULT_SECRET_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {VAULT_SECRET_KIND_NAMES[kind]}
                  </option>
                ))}
              </Select>
            </div>
            <div className="space-y-1.5 sm:col-span-2">
              <Label htmlFor="secret-value">Value</Label>
              <Input
                id="secret-value"
                name="value"
                type="password"
                required
                autoComplete="new-password"
                aria-invalid={fieldProblem('value') ? true : undefined}
                aria-describedby={fieldProblem('value') ? 'secret-value-error' : undefined}
              />
              <FieldError id="secret-value-error" errors={fieldProblem('value') ? [fieldProblem('value') ?? ''] : undefined} />
            </div>
            <SecretRulesFields idPrefix="secret" origins={[]} useRole="member" roleChoices={view.roleChoices} problem={addProblem} />
            <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
              <Button type="submit" disabled={adding || full}>
                <KeySquare aria-hidden="true" />
                {adding ? 'Saving...' : 'Add Secret'}
              </Button>
              <p className="text-xs text-muted-foreground">
                {view.limit === null
                  ? `The ${view.planName} plan's vault has no limit.`
                  : `${view.secrets.length} of ${view.limit} secrets on the ${view.planName} plan.`}
              </p>
            </div>
          </Form>
        ) : (
          <p className="text-sm text-muted-foreground">You are a viewer here: you see the names, and members change them.</p>
        )}

        {view.secrets.length === 0 ? (
          <p className="text-sm text-muted-foreground">The vault is empty.</p>
        ) : (
          <ul aria-label="Secrets" className="divide-y rounded-md border">
            {view.secrets.map((secret) => (
              <SecretItem
                key={secret.id}
                secret={secret}
                roleChoices={view.roleChoices}
                problem={
                  problem?.intent === `secret-rules-${secret.id}` || problem?.intent === `confirm-sites-${secret.id}` ? problem : null
                }
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
