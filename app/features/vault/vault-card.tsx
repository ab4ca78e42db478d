import { KeySquare, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { VAULT_SECRET_KIND_NAMES, VAULT_SECRET_KINDS, type VaultSecretKind } from '#common/vault.ts'

export interface SecretRow {
  id: string
  name: string
  kind: VaultSecretKind
  placeholder: string
  updatedLabel: string
}

export interface VaultView {
  workspaceName: string
  secrets: SecretRow[]
  /** Members and above change the vault; viewers see the names. */
  canChange: boolean
  /** How many secrets the plan's vault holds (null: no limit), and the plan's name. */
  limit: number | null
  planName: string
}

/** The workspace's credential vault (docs/decisions/025): add, replace and delete; values never come back. */
export function VaultCard({ view, formKey }: { view: VaultView; formKey: number }) {
  const navigation = useNavigation()
  const adding = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'add-secret'
  const full = view.limit !== null && view.secrets.length >= view.limit
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Secrets in {view.workspaceName}</CardTitle>
        <CardDescription>
          Sign-in names, passwords, one-time code keys and other values your cloud runs type. Steps name them, for example{' '}
          <code className="font-mono text-xs">{'{{secrets.shop_password}}'}</code> or{' '}
          <code className="font-mono text-xs">{'{{totp.shop}}'}</code> for the current one-time code. A saved value is never shown again,
          never written to a run&apos;s log and never sent to an AI model.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {view.canChange ? (
          <Form method="post" key={formKey} className="grid gap-3 sm:grid-cols-[1fr_1fr]" autoComplete="off">
            <input type="hidden" name="intent" value="add-secret" />
            <div className="space-y-1.5">
              <Label htmlFor="secret-name">Name</Label>
              <Input id="secret-name" name="name" required maxLength={64} placeholder="shop_password" pattern="[A-Za-z_][A-Za-z0-9_]*" />
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
              <Input id="secret-value" name="value" type="password" required autoComplete="new-password" />
            </div>
            <div className="flex items-center gap-3 sm:col-span-2">
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
              <SecretItem key={secret.id} secret={secret} canChange={view.canChange} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

function SecretItem({ secret, canChange }: { secret: SecretRow; canChange: boolean }) {
  const [replacing, setReplacing] = useState(false)
  return (
    <li className="space-y-3 p-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <p className="flex items-center gap-2 font-medium">
            <span className="truncate">{secret.name}</span>
            <Badge variant="secondary">{VAULT_SECRET_KIND_NAMES[secret.kind]}</Badge>
          </p>
          <p className="text-xs text-muted-foreground">
            <code className="font-mono">{secret.placeholder}</code> · changed {secret.updatedLabel}
          </p>
        </div>
        {canChange ? (
          <div className="flex gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              aria-expanded={replacing}
              aria-label={`Replace ${secret.name}`}
              onClick={() => setReplacing(!replacing)}
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
      {replacing ? (
        <Form method="post" className="flex gap-2" autoComplete="off" onSubmit={() => setReplacing(false)}>
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
