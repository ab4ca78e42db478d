import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from 'react-router'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { passwordChangeFormSchema } from '#common/account.ts'

/** 'Security' (the side menu's anchor): change the password with the current one. */
export function SecurityCard({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'change-password'
  const [form, fields] = useForm({
    id: 'change-password',
    lastResult: navigation.state === 'idle' ? lastResult : undefined,
    constraint: getZodConstraint(passwordChangeFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordChangeFormSchema }),
  })
  return (
    <Card id="security" className="scroll-mt-20">
      <CardHeader>
        <CardTitle level={2}>Security</CardTitle>
        <CardDescription>Change your password. Your other sessions are signed out.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="space-y-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="change-password" />
          <div className="space-y-2">
            <Label htmlFor={fields.currentPassword.id}>Current Password</Label>
            <Input {...getInputProps(fields.currentPassword, { type: 'password' })} autoComplete="current-password" />
            <FieldError id={fields.currentPassword.errorId} errors={fields.currentPassword.errors} />
          </div>
          <div className="space-y-2">
            <Label htmlFor={fields.newPassword.id}>New Password</Label>
            <Input {...getInputProps(fields.newPassword, { type: 'password' })} autoComplete="new-password" />
            <FieldError id={fields.newPassword.errorId} errors={fields.newPassword.errors} />
          </div>
          <div className="flex items-start gap-2">
            <input
              id="revoke-api-keys"
              name={fields.revokeApiKeys.name}
              type="checkbox"
              defaultChecked
              className="mt-0.5 size-4 accent-primary"
              aria-describedby="revoke-api-keys-hint"
            />
            <div>
              <Label htmlFor="revoke-api-keys">Also revoke all API keys and devices</Label>
              <p id="revoke-api-keys-hint" className="text-xs text-muted-foreground">
                Recommended if you think your password, a key or a device leaked. Apps using a key will need a new one, and connected
                devices will need to connect again.
              </p>
            </div>
          </div>
          <FieldError id={form.errorId} errors={form.errors} />
          <Button type="submit" disabled={busy}>
            {busy ? 'Changing...' : 'Change Password'}
          </Button>
        </Form>
      </CardContent>
    </Card>
  )
}
