import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { data, Form, useActionData, useLoaderData, useNavigation } from 'react-router'
import { toast } from '#app/lib/toast.ts'
import { z } from '#common/zod.ts'
import type { Route } from './+types/settings'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { requireMember } from '#app/lib/guards.server.ts'
import { fullNameSchema } from '#common/auth.ts'

const accountSchema = z.object({ fullName: fullNameSchema })

export function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  return { email: user.email, fullName: user.profile.fullName ?? '' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const submission = parseWithZod(await request.formData(), { schema: accountSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), saved: false }, { status: 400 })
  await context.services.auth.updateProfile(user.id, { fullName: submission.value.fullName })
  return { result: submission.reply(), saved: true }
}

export const meta: Route.MetaFunction = () => [{ title: 'Account Settings | Aether' }, { name: 'robots', content: 'noindex' }]

export default function SettingsPage() {
  const { email, fullName } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    constraint: getZodConstraint(accountSchema),
    defaultValue: { fullName },
    shouldValidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: accountSchema }),
  })
  useEffect(() => {
    if (actionData?.saved) toast.success('Settings updated')
  }, [actionData])

  return (
    <main className="max-w-2xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Account Settings</h1>
      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
          <CardDescription>How you appear in Aether.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" className="space-y-4" {...getFormProps(form)}>
            <div className="space-y-2">
              <Label htmlFor="email">Email Address</Label>
              <Input id="email" type="email" value={email} readOnly aria-readonly="true" />
            </div>
            <div className="space-y-2">
              <Label htmlFor={fields.fullName.id}>Full Name</Label>
              <Input {...getInputProps(fields.fullName, { type: 'text' })} autoComplete="name" />
              {fields.fullName.errors?.[0] ? <p className="text-sm text-destructive">{fields.fullName.errors[0]}</p> : null}
            </div>
            <Button type="submit" disabled={navigation.state === 'submitting'}>
              Save Changes
            </Button>
          </Form>
        </CardContent>
      </Card>
    </main>
  )
}
