import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Send } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { inquiryInputSchema } from '#common/inquiries.ts'
import { PROJECT_TYPE_LABELS, PROJECT_TYPES, type ProjectType } from '#common/inquiry-fields.ts'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { HoneypotField } from '#app/components/forms/honeypot-field.tsx'

/**
 * 'Let's Discuss Your Project'. A plain POST form before hydration; after it, Conform checks each
 * field on blur with the schema the route action and POST /api/contact use. The project type is
 * held by the page, because choosing a service tab sets it too.
 */
export function InquiryForm({
  lastResult,
  projectType,
  onProjectTypeChange,
}: {
  lastResult?: SubmissionResult<string[]> | null
  projectType: ProjectType
  onProjectTypeChange: (value: ProjectType) => void
}) {
  const navigation = useNavigation()
  const sending = navigation.state !== 'idle' && navigation.formMethod === 'POST' && navigation.formAction?.startsWith('/services') === true
  const [form, fields] = useForm({
    id: 'service-inquiry',
    // Conform resets the fields to these after a sent inquiry.
    defaultValue: { projectType: 'data-scraping' },
    lastResult: navigation.state === 'idle' ? lastResult : undefined,
    constraint: getZodConstraint(inquiryInputSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inquiryInputSchema }),
  })

  return (
    <Form method="post" action="/services" preventScrollReset className="space-y-5" {...getFormProps(form)}>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={fields.name.id}>Name</Label>
          <Input {...getInputProps(fields.name, { type: 'text' })} autoComplete="name" placeholder="Jane Doe" />
          <FieldError id={fields.name.errorId} errors={fields.name.errors} />
        </div>
        <div className="space-y-2">
          <Label htmlFor={fields.email.id}>Email</Label>
          <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" placeholder="you@example.com" />
          <FieldError id={fields.email.errorId} errors={fields.email.errors} />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor={fields.projectType.id}>Project Type</Label>
        <Select
          id={fields.projectType.id}
          name={fields.projectType.name}
          value={projectType}
          onChange={(event) => onProjectTypeChange(event.target.value as ProjectType)}
          aria-invalid={fields.projectType.errors ? true : undefined}
          aria-describedby={fields.projectType.errors ? fields.projectType.errorId : undefined}
        >
          {PROJECT_TYPES.map((type) => (
            <option key={type} value={type}>
              {PROJECT_TYPE_LABELS[type]}
            </option>
          ))}
        </Select>
        <FieldError id={fields.projectType.errorId} errors={fields.projectType.errors} />
      </div>
      <div className="space-y-2">
        <Label htmlFor={fields.message.id}>Project Details</Label>
        <Textarea
          {...getTextareaProps(fields.message)}
          rows={5}
          placeholder="What should be automated, how often, and what data is involved?"
        />
        <FieldError id={fields.message.errorId} errors={fields.message.errors} />
      </div>
      <HoneypotField id="service-inquiry-honeypot" />
      <FieldError id={form.errorId} errors={form.errors} />
      <Button type="submit" size="lg" className="w-full" disabled={sending}>
        <Send aria-hidden="true" />
        {sending ? 'Sending...' : 'Send Inquiry'}
      </Button>
    </Form>
  )
}
