import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import { Send } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { contactMessageSchema } from '#common/inquiries.ts'
import { INQUIRY_LIMITS } from '#common/inquiry-fields.ts'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { HoneypotField } from '#app/components/forms/honeypot-field.tsx'

/**
 * The contact form. A plain POST form before hydration; after it, Conform validates each field
 * on blur with the same schema the route action uses.
 */
export function ContactForm({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formAction?.startsWith('/contact') === true
  const [form, fields] = useForm({
    id: 'contact',
    lastResult: navigation.state === 'idle' ? lastResult : undefined,
    constraint: getZodConstraint(contactMessageSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactMessageSchema }),
  })

  return (
    <Form method="post" action="/contact" className="space-y-5" {...getFormProps(form)}>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={fields.name.id}>Your Name</Label>
          <Input {...getInputProps(fields.name, { type: 'text' })} autoComplete="name" placeholder="Jane Doe" />
          <FieldError id={fields.name.errorId} errors={fields.name.errors} />
        </div>
        <div className="space-y-2">
          <Label htmlFor={fields.email.id}>Email Address</Label>
          <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" placeholder="you@example.com" />
          <FieldError id={fields.email.errorId} errors={fields.email.errors} />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor={fields.subject.id}>Subject</Label>
        <Input {...getInputProps(fields.subject, { type: 'text' })} placeholder="What is this about?" />
        <FieldError id={fields.subject.errorId} errors={fields.subject.errors} />
      </div>
      <div className="space-y-2">
        <Label htmlFor={fields.message.id}>Message</Label>
        <Textarea {...getTextareaProps(fields.message)} rows={5} placeholder="How can I help?" />
        <div className="flex justify-between gap-4">
          <FieldError id={fields.message.errorId} errors={fields.message.errors} />
          <span className="ml-auto text-xs text-muted-foreground">Up to {INQUIRY_LIMITS.message.toLocaleString('en-US')} characters</span>
        </div>
      </div>
      <HoneypotField id="contact-honeypot" />
      <FieldError id={form.errorId} errors={form.errors} />
      <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={busy}>
        <Send aria-hidden="true" />
        {busy ? 'Sending...' : 'Send Message'}
      </Button>
    </Form>
  )
}
