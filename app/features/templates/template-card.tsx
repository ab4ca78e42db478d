import { Lock, Wand2 } from 'lucide-react'
import { useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { previewSteps } from '#common/template-steps.ts'
import { MAX_INPUT_VALUE_LENGTH } from '#common/templates.ts'
import type { Gallery, UseResult } from './gallery-view.server.ts'

type Template = Gallery['templates'][number]

/**
 * One template of the gallery: what it does, its steps in words (with the values typed so far,
 * the examples elsewhere), and the form that makes an automation of it. The form is a plain POST,
 * so it works before the page has loaded its scripts.
 */
export function TemplateCard({ template, canUse, answer }: { template: Template; canUse: boolean; answer: UseResult | undefined }) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(template.inputs.map((input) => [input.name, input.defaultValue])),
  )
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('templateId') === template.id
  const refusal = answer && !answer.ok && answer.templateId === template.id ? answer : undefined
  const slug = `template-${template.id}`
  const fieldError = (path: string) => (refusal?.field === path ? refusal.error.description : undefined)
  return (
    <Card data-template={template.name}>
      <CardHeader className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary">{template.category}</Badge>
          {template.advanced ? (
            <Badge variant="outline" className="gap-1">
              <Wand2 className="size-3" aria-hidden="true" /> Advanced
            </Badge>
          ) : null}
        </div>
        <CardTitle level={2} id={`${slug}-title`}>
          {template.name}
        </CardTitle>
        {template.description ? <CardDescription>{template.description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="space-y-4">
        <ol aria-label={`Steps of ${template.name}`} className="list-decimal space-y-1 pl-5 text-sm">
          {previewSteps(template.steps, template.inputs, values).map((words, index) => (
            <li key={index}>{words}</li>
          ))}
        </ol>
        {template.locked ? (
          <p className="flex items-start gap-2 rounded-md border p-3 text-sm">
            <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              {template.locked}{' '}
              <Link to="/billing" className="font-medium text-primary underline underline-offset-4">
                See the plans
              </Link>
            </span>
          </p>
        ) : !canUse ? (
          <p className="text-sm text-muted-foreground">
            You are a viewer in this workspace: you can browse templates, not make automations.
          </p>
        ) : (
          <Form method="post" className="space-y-3" aria-labelledby={`${slug}-title`} preventScrollReset>
            <input type="hidden" name="intent" value="use-template" />
            <input type="hidden" name="templateId" value={template.id} />
            {template.inputs.map((input) => {
              const id = `${slug}-${input.name}`
              const error = fieldError(`inputs.${input.name}`)
              return (
                <div key={input.name} className="space-y-1">
                  <Label htmlFor={id}>
                    {input.label}
                    {input.required ? null : <span className="font-normal text-muted-foreground"> (optional)</span>}
                  </Label>
                  <Input
                    id={id}
                    name={`input.${input.name}`}
                    value={values[input.name] ?? ''}
                    onChange={(event) => setValues((current) => ({ ...current, [input.name]: event.target.value }))}
                    placeholder={input.example}
                    required={input.required}
                    maxLength={MAX_INPUT_VALUE_LENGTH}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                  />
                  {error ? (
                    <p id={`${id}-error`} className="text-sm text-destructive">
                      {error}
                    </p>
                  ) : null}
                </div>
              )
            })}
            <div className="space-y-1">
              <Label htmlFor={`${slug}-name`}>Name of the automation</Label>
              <Input id={`${slug}-name`} name="name" placeholder={template.name} maxLength={100} />
            </div>
            {refusal && !refusal.field?.startsWith('inputs.') ? (
              <p role="alert" className="text-sm text-destructive">
                {refusal.error.description}
              </p>
            ) : null}
            <Button type="submit" disabled={busy} aria-label={`Use template: ${template.name}`}>
              {busy ? 'Creating...' : 'Use template'}
            </Button>
          </Form>
        )}
      </CardContent>
    </Card>
  )
}
