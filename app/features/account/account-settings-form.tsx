import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from 'react-router'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { useBrowserTimeZone } from '#app/lib/use-browser-time-zone.ts'
import { accountSettingsSchema } from '#common/account.ts'
import { PHONE_EXAMPLE } from '#common/phone.ts'
import { timeZoneNames } from '#common/time-zones.ts'

/** 'Account Settings': name, e-mail, phone and time zone, with the spec's 'Reset Password' button beside 'Save Changes'. */
export function AccountSettingsForm({
  email,
  fullName,
  timeZone,
  phone,
  lastResult,
}: {
  email: string
  fullName: string
  /** The zone for schedules (docs/decisions/036); null: the browser's. */
  timeZone: string | null
  /** E.164, or null. */
  phone: string | null
  lastResult?: SubmissionResult<string[]>
}) {
  const browserZone = useBrowserTimeZone()
  const navigation = useNavigation()
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const [form, fields] = useForm({
    id: 'account-settings',
    lastResult: navigation.state === 'idle' ? lastResult : undefined,
    constraint: getZodConstraint(accountSettingsSchema),
    defaultValue: { email, fullName, timeZone: timeZone ?? '', phone: phone ?? '' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: accountSettingsSchema }),
  })

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Account Settings</CardTitle>
        <CardDescription>Your name and the e-mail address you sign in with.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Form method="post" className="space-y-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="account" />
          <div className="space-y-2">
            <Label htmlFor={fields.email.id}>Email Address</Label>
            <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
            <FieldError id={fields.email.errorId} errors={fields.email.errors} />
            <p className="text-xs text-muted-foreground">A new address is used once you follow the link we send to it.</p>
          </div>
          <div className="space-y-2">
            <Label htmlFor={fields.fullName.id}>Full Name</Label>
            <Input {...getInputProps(fields.fullName, { type: 'text' })} autoComplete="name" />
            <FieldError id={fields.fullName.errorId} errors={fields.fullName.errors} />
          </div>
          <div className="space-y-2">
            <Label htmlFor={fields.phone.id}>Phone Number (optional)</Label>
            <Input
              {...getInputProps(fields.phone, { type: 'tel' })}
              autoComplete="tel"
              placeholder={PHONE_EXAMPLE}
              aria-describedby={[fields.phone.errors ? fields.phone.errorId : null, `${fields.phone.id}-help`].filter(Boolean).join(' ')}
            />
            <FieldError id={fields.phone.errorId} errors={fields.phone.errors} />
            <p id={`${fields.phone.id}-help`} className="text-xs text-muted-foreground">
              In international format, with + and the country code.
            </p>
          </div>
          <div className="space-y-2">
            <Label htmlFor={fields.timeZone.id}>Time zone</Label>
            <Input
              {...getInputProps(fields.timeZone, { type: 'text' })}
              list="settings-time-zones"
              autoComplete="off"
              spellCheck={false}
              placeholder={browserZone ? `Your browser’s: ${browserZone}` : 'Your browser’s'}
              aria-describedby={[fields.timeZone.errors ? fields.timeZone.errorId : null, `${fields.timeZone.id}-help`]
                .filter(Boolean)
                .join(' ')}
            />
            {/* The browser's own list of zones, once the page runs there (the server's may differ). */}
            <datalist id="settings-time-zones">
              {(browserZone ? timeZoneNames() : []).map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
            <FieldError id={fields.timeZone.errorId} errors={fields.timeZone.errors} />
            <p id={`${fields.timeZone.id}-help`} className="text-xs text-muted-foreground">
              New schedules start in this zone, and run times show in it. Leave it empty to use your browser’s.
            </p>
          </div>
          <FieldError id={form.errorId} errors={form.errors} />
          <Button type="submit" disabled={busyIntent === 'account'}>
            {busyIntent === 'account' ? 'Saving...' : 'Save Changes'}
          </Button>
        </Form>
        <Form method="post" className="border-t pt-4">
          <input type="hidden" name="intent" value="reset-password" />
          <p className="mb-3 text-sm text-muted-foreground">Forgot your password? We can e-mail you a link to choose a new one.</p>
          <Button type="submit" variant="outline" disabled={busyIntent === 'reset-password'}>
            {busyIntent === 'reset-password' ? 'Sending...' : 'Reset Password'}
          </Button>
        </Form>
      </CardContent>
    </Card>
  )
}
