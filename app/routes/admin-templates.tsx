import { format } from 'date-fns'
import { useEffect, useState } from 'react'
import { useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/admin-templates'
import { Button } from '#app/components/ui/button.tsx'
import { parseInput } from '#app/features/admin/parse-input.server.ts'
import { TemplateDialog, type TemplateDraft } from '#app/features/admin/templates/template-dialog.tsx'
import { templateFormInput } from '#app/features/admin/templates/template-form.server.ts'
import { TemplatesTable } from '#app/features/admin/templates/templates-table.tsx'
import { actionResult } from '#app/lib/action-result.server.ts'
import { requireAdminAction, requireAdminMember } from '#app/lib/guards.server.ts'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import { toast } from '#app/lib/toast.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { ValidationError } from '#common/errors.ts'
import { isUuid } from '#common/ids.ts'
import { TEMPLATE_CATEGORY_NAMES, templateCreateSchema, templateUpdateSchema } from '#common/templates.ts'

export async function loader({ context }: Route.LoaderArgs) {
  requireAdminMember(context)
  const loaded = await readForPage(
    context,
    () => context.services.templates.listAll(),
    'The templates could not be loaded. Please try again.',
  )
  return {
    error: loaded.ok ? null : loaded.message,
    templates: (loaded.ok ? loaded.value : []).map((template) => ({
      id: template.id,
      name: template.name,
      category: TEMPLATE_CATEGORY_NAMES[template.category],
      inputCount: template.inputs.length,
      stepCount: template.steps.length,
      advanced: template.advanced,
      published: template.published,
      updated: format(template.updatedAt, 'MMM d, yyyy'),
      draft: {
        id: template.id,
        name: template.name,
        category: template.category,
        description: template.description,
        steps: JSON.stringify(template.steps, null, 2),
        inputs: JSON.stringify(template.inputs, null, 2),
        advanced: template.advanced,
        published: template.published,
      } satisfies TemplateDraft,
    })),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireAdminAction(context)
  const form = Object.fromEntries(await request.formData())
  const intent = String(form.intent)
  const id = String(form.templateId ?? '')
  const { templates } = context.services
  // A malformed id names no template: as unknown as a missing one.
  const templateId = isUuid(id) ? id : '00000000-0000-0000-0000-000000000000'
  if (intent === 'create-template') {
    return actionResult(() => templates.create(actor, parseInput(templateCreateSchema, templateFormInput(form))), {
      intent,
      success: (template) => ({ title: 'Template created', description: template.published ? 'It is in the gallery.' : 'It is a draft.' }),
      error: 'Error saving template',
    })
  }
  if (intent === 'update-template') {
    return actionResult(() => templates.update(actor, templateId, parseInput(templateUpdateSchema, templateFormInput(form))), {
      intent,
      success: { title: 'Template saved' },
      error: 'Error saving template',
    })
  }
  if (intent === 'set-published') {
    const published = form.published === 'true'
    return actionResult(() => templates.update(actor, templateId, { published }), {
      intent,
      success: (template) => ({ title: published ? 'Template published' : 'Template unpublished', description: template.name }),
      error: 'Error saving template',
    })
  }
  if (intent === 'delete-template') {
    return actionResult(() => templates.remove(actor, templateId), {
      intent,
      success: { title: 'Template deleted' },
      error: 'Error deleting template',
    })
  }
  return actionResult(() => Promise.reject(new ValidationError('Unknown action')), {
    intent,
    success: { title: '' },
    error: 'Error saving template',
  })
}

const NEW_TEMPLATE: TemplateDraft = {
  name: '',
  category: 'data-entry',
  description: '',
  inputs: JSON.stringify([{ name: 'start_url', label: 'Start page', example: 'https://www.example.com/', required: true }], null, 2),
  steps: JSON.stringify([{ type: 'navigate', url: '{{start_url}}' }], null, 2),
  advanced: false,
  published: false,
}

export default function AdminTemplatesTab() {
  const { templates, error } = useLoaderData<typeof loader>()
  useActionToast(useActionData<typeof action>())
  const [editing, setEditing] = useState<TemplateDraft | null>(null)
  useEffect(() => {
    if (error) toast.error('Error fetching templates', { description: error })
  }, [error])
  return (
    <section aria-label="Templates" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          Members see the published templates in their gallery; advanced ones only on plans with advanced templates (Subscriptions tab).
        </p>
        <Button type="button" onClick={() => setEditing(NEW_TEMPLATE)}>
          New Template
        </Button>
      </div>
      <TemplatesTable templates={templates} onEdit={setEditing} />
      {editing ? <TemplateDialog key={editing.id ?? 'new'} draft={editing} onClose={() => setEditing(null)} /> : null}
    </section>
  )
}
