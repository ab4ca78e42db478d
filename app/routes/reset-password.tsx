import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import type { Route } from './+types/reset-password'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { CenteredCard } from '#app/components/layout/centered-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { flashHeader } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { resetPasswordSchema } from '#common/account.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

const LINK_FAILED = 'This reset link has expired or was already used. Ask for a new one below.'

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get('token') ?? '' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: resetPasswordSchema })
  const hidden = { hideFields: ['newPassword', 'confirmPassword'] }
  if (submission.status !== 'success') return data({ result: submission.reply(hidden), linkFailed: false }, { status: 400 })
  const result = await context.services.account.resetPassword(submission.value.token, submission.value.newPassword)
  if (result === 'invalid')
    return data({ result: submission.reply({ ...hidden, formErrors: [LINK_FAILED] }), linkFailed: true }, { status: 400 })
  const flash = await flashHeader({ type: 'success', title: 'Password changed', description: 'Log in with your new password.' })
  return redirect('/auth', { headers: withCookies([flash]) })
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta = privatePageMeta('Choose a new password')

export default function ResetPasswordPage() {
  const { token } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'reset-password',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    constraint: getZodConstraint(resetPasswordSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  })
  return (
    <CenteredCard title="Choose a new password" description="At least 8 characters. Signing in with it ends your other sessions.">
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="token" value={token} />
        <div className="space-y-2">
          <Label htmlFor={fields.newPassword.id}>New Password</Label>
          <Input {...getInputProps(fields.newPassword, { type: 'password' })} autoComplete="new-password" />
          <FieldError id={fields.newPassword.errorId} errors={fields.newPassword.errors} />
        </div>
        <div className="space-y-2">
          <Label htmlFor={fields.confirmPassword.id}>Repeat New Password</Label>
          <Input {...getInputProps(fields.confirmPassword, { type: 'password' })} autoComplete="new-password" />
          <FieldError id={fields.confirmPassword.errorId} errors={fields.confirmPassword.errors} />
        </div>
        <FieldError id={form.errorId} errors={form.errors ?? (token ? undefined : ['This reset link is incomplete.'])} />
        <Button type="submit" className="w-full" disabled={navigation.state === 'submitting'}>
          {navigation.state === 'submitting' ? 'Please wait' : 'Set New Password'}
        </Button>
      </Form>
      {actionData?.linkFailed || !token ? (
        <p className="text-center text-sm">
          <Link to="/forgot-password" className="font-medium text-primary hover:underline">
            Send me a new link
          </Link>
        </p>
      ) : null}
    </CenteredCard>
  )
}
