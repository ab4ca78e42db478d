import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { KeyRound, Trash2 } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { ShownOnce } from '#app/components/shown-once.tsx'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { API_KEY_SCOPE_LABELS, API_KEY_SCOPES, apiKeyCreateSchema, MAX_ACTIVE_API_KEYS, type ApiKeyScope } from '#common/api-keys.ts'

export interface ApiKeyRow {
  id: string
  name: string
  prefix: string
  createdLabel: string
  /** 'Never' until the key is first used. */
  lastUsedLabel: string
  revoked: boolean
  scopes: ApiKeyScope[]
}

/** 'API Keys': named keys for the extension, desktop apps and scripts; a new key is shown once. */
export function ApiKeysCard({
  keys,
  createdKey,
  lastResult,
  canGrantAdmin,
}: {
  keys: ApiKeyRow[]
  /** Admins may give a key admin scopes; everyone else's keys have `automations` only. */
  canGrantAdmin: boolean
  /** The key just created, whole: only the action's answer carries it, so a reload forgets it. */
  createdKey: { name: string; key: string } | null
  lastResult?: SubmissionResult<string[]>
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create-api-key'
  const [form, fields] = useForm({
    id: 'create-api-key',
    lastResult: navigation.state === 'idle' ? lastResult : undefined,
    constraint: getZodConstraint(apiKeyCreateSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: apiKeyCreateSchema }),
  })
  const active = keys.filter((key) => !key.revoked).length

  return (
    <Card id="api-keys" className="scroll-mt-20">
      <CardHeader>
        <CardTitle level={2}>API Keys</CardTitle>
        <CardDescription>
          Keys let the browser extension, the desktop apps and your scripts use the API as you: send one as{' '}
          <code className="font-mono text-xs">Authorization: Bearer ak_...</code>. Up to {MAX_ACTIVE_API_KEYS} active keys.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {createdKey ? (
          <ShownOnce
            key={createdKey.key}
            title={<>Your new key &ldquo;{createdKey.name}&rdquo;</>}
            note="Copy it now and keep it somewhere safe. You won't see this key again."
            label="New API key"
            value={createdKey.key}
          />
        ) : null}

        <Form method="post" className="space-y-2" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="create-api-key" />
          <Label htmlFor={fields.name.id}>Key Name</Label>
          <div className="flex gap-2">
            <Input {...getInputProps(fields.name, { type: 'text' })} placeholder="e.g. Desktop app on my laptop" autoComplete="off" />
            <Button type="submit" disabled={busy}>
              <KeyRound aria-hidden="true" />
              {busy ? 'Creating...' : 'Create Key'}
            </Button>
          </div>
          <FieldError id={fields.name.errorId} errors={fields.name.errors} />
          {canGrantAdmin ? (
            <fieldset className="space-y-2 pt-2">
              <legend className="text-sm font-medium">What the key may do</legend>
              {API_KEY_SCOPES.map((scope) => (
                <div key={scope} className="flex items-start gap-2">
                  <input
                    id={`scope-${scope}`}
                    type="checkbox"
                    name={fields.scopes.name}
                    value={scope}
                    defaultChecked={scope === 'automations'}
                    className="mt-0.5 size-4 accent-primary"
                  />
                  <Label htmlFor={`scope-${scope}`} className="font-normal">
                    <span className="font-mono text-xs">{scope}</span> · {API_KEY_SCOPE_LABELS[scope]}
                  </Label>
                </div>
              ))}
              <p className="text-xs text-muted-foreground">
                No key can manage keys, passwords, users or settings: those need you signed in.
              </p>
            </fieldset>
          ) : (
            <p className="text-xs text-muted-foreground">
              A key can manage your automations and runs. It cannot manage keys or change your password.
            </p>
          )}
          <FieldError id={fields.scopes.errorId} errors={fields.scopes.errors} />
          <FieldError id={form.errorId} errors={form.errors} />
        </Form>

        {keys.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have no API keys yet.</p>
        ) : (
          <ul aria-label="Your API keys" className="divide-y rounded-md border">
            {keys.map((key) => (
              <li key={key.id} className="flex items-center justify-between gap-4 p-3">
                <div className="min-w-0 space-y-1">
                  <p className="flex items-center gap-2 font-medium">
                    <span className="truncate">{key.name}</span>
                    {key.revoked ? <Badge variant="secondary">Revoked</Badge> : null}
                  </p>
                  <p className="font-mono text-xs text-muted-foreground">
                    {key.prefix}_... · {key.scopes.join(', ')}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Created {key.createdLabel} · Last used {key.lastUsedLabel}
                  </p>
                </div>
                {key.revoked ? null : (
                  <ConfirmAction
                    label={
                      <>
                        <Trash2 aria-hidden="true" />
                        Revoke
                      </>
                    }
                    triggerProps={{ variant: 'outline', size: 'sm', 'aria-label': `Revoke ${key.name}` }}
                    title={`Revoke "${key.name}"?`}
                    description="Anything using this key stops working at once. This cannot be undone."
                    confirmLabel="Revoke Key"
                    fields={{ intent: 'revoke-api-key', id: key.id }}
                    destructive
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        {active >= MAX_ACTIVE_API_KEYS ? (
          <p className="text-sm text-muted-foreground">You have reached the limit: revoke a key to create another.</p>
        ) : null}
      </CardContent>
    </Card>
  )
}
