import { Eye, EyeOff, Pencil, Trash2 } from 'lucide-react'
import { useFetcher } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { DataTable, EmptyRow } from '#app/components/data-table.tsx'
import { Button } from '#app/components/ui/button.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { TemplateDraft } from './template-dialog.tsx'

export interface TemplateRow {
  id: string
  name: string
  category: string
  inputCount: number
  stepCount: number
  advanced: boolean
  published: boolean
  updated: string
  draft: TemplateDraft
}

const HEADERS = ['Name', 'Category', 'Steps', 'Inputs', 'Plans', 'Status', 'Updated', 'Actions']

/** The gallery's templates, drafts included: publish or unpublish, edit, delete (after a confirmation). */
export function TemplatesTable({ templates, onEdit }: { templates: TemplateRow[]; onEdit: (draft: TemplateDraft) => void }) {
  return (
    <DataTable caption="Automation templates" headers={HEADERS}>
      {templates.length === 0 ? <EmptyRow colSpan={HEADERS.length}>No templates yet. Add the first one!</EmptyRow> : null}
      {templates.map((template) => (
        <tr key={template.id} className="border-b last:border-0">
          <td data-label="Name" className="px-3 py-2 font-medium">
            {template.name}
          </td>
          <td data-label="Category" className="px-3 py-2 whitespace-nowrap">
            {template.category}
          </td>
          <td data-label="Steps" className="px-3 py-2 tabular-nums">
            {template.stepCount}
          </td>
          <td data-label="Inputs" className="px-3 py-2 tabular-nums">
            {template.inputCount}
          </td>
          <td data-label="Plans" className="px-3 py-2 whitespace-nowrap">
            {template.advanced ? 'Advanced' : 'Every plan'}
          </td>
          <td data-label="Status" className="px-3 py-2">
            <span
              className={
                template.published
                  ? 'rounded-full border border-emerald-600/40 bg-emerald-500/10 px-2 py-0.5 text-xs text-emerald-700 dark:text-emerald-300'
                  : 'rounded-full border px-2 py-0.5 text-xs text-muted-foreground'
              }
            >
              {template.published ? 'Published' : 'Draft'}
            </span>
          </td>
          <td data-label="Updated" className="px-3 py-2 whitespace-nowrap">
            {template.updated}
          </td>
          <td data-label="Actions" className="px-3 py-2">
            <div className="flex items-center gap-1">
              <PublishButton template={template} />
              <Button variant="ghost" size="icon" aria-label={`Edit ${template.name}`} title="Edit" onClick={() => onEdit(template.draft)}>
                <Pencil aria-hidden="true" />
              </Button>
              <ConfirmAction
                label={<Trash2 aria-hidden="true" />}
                triggerProps={{
                  variant: 'ghost',
                  size: 'icon',
                  'aria-label': `Delete ${template.name}`,
                  title: 'Delete',
                  className: 'text-destructive hover:text-destructive',
                }}
                title={`Delete the template “${template.name}”?`}
                description="It leaves the gallery. Automations made from it stay as they are."
                confirmLabel="Delete Template"
                fields={{ intent: 'delete-template', templateId: template.id }}
                destructive
              />
            </div>
          </td>
        </tr>
      ))}
    </DataTable>
  )
}

function PublishButton({ template }: { template: TemplateRow }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data)
  const label = template.published ? `Unpublish ${template.name}` : `Publish ${template.name}`
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="set-published" />
      <input type="hidden" name="templateId" value={template.id} />
      <input type="hidden" name="published" value={String(!template.published)} />
      <Button type="submit" variant="ghost" size="icon" aria-label={label} title={label} disabled={fetcher.state !== 'idle'}>
        {template.published ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
      </Button>
    </fetcher.Form>
  )
}
