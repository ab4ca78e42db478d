import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router'
import type { Route } from './+types/forgot-password'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { CenteredCard } from '#app/components/layout/centered-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { forgotPasswordSchema } from '#common/account.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: forgotPasswordSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const outcome = await attempt(() => context.services.account.requestPasswordReset(submission.value.email, context.clientIp))
  if (!outcome.ok) return data({ result: submission.reply({ formErrors: [outcome.error.message] }) }, { status: outcome.error.status })
  // The same answer whether or not the address has an account.
  const flash = await flashHeader({
    type: 'success',
    title: 'Check your inbox',
    description: `If ${submission.value.email} has an Aether account, a reset link is on its way. It works once, for 1 hour.`,
  })
  return redirect('/auth', { headers: withCookies([flash]) })
}

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta = privatePageMeta('Reset your password')

export default function ForgotPasswordPage() {
  const lastResult = useActionData<typeof action>()?.result
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'forgot-password',
    lastResult: navigation.state === 'idle' ? lastResult : undefined,
    constraint: getZodConstraint(forgotPasswordSchema),
    shouldValidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  })
  return (
    <CenteredCard title="Reset your password" description="Enter your account's e-mail address and we will send you a link.">
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <div className="space-y-2">
          <Label htmlFor={fields.email.id}>Email</Label>
          <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" placeholder="you@example.com" />
          <FieldError id={fields.email.errorId} errors={fields.email.errors} />
        </div>
        <FieldError id={form.errorId} errors={form.errors} />
        <Button type="submit" className="w-full" disabled={navigation.state === 'submitting'}>
          {navigation.state === 'submitting' ? 'Sending...' : 'Send Reset Link'}
        </Button>
      </Form>
      <p className="text-center text-sm text-muted-foreground">
        Remembered it?{' '}
        <Link to="/auth" className="font-medium text-primary hover:underline">
          Log in
        </Link>
      </p>
    </CenteredCard>
  )
}
