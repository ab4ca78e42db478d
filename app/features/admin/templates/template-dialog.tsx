import { useState } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#app/components/ui/dialog.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { checkTemplateSteps, previewSteps } from '#common/template-steps.ts'
import { TEMPLATE_CATEGORIES, TEMPLATE_CATEGORY_NAMES, templateInputSchema } from '#common/templates.ts'
import { z } from '#common/zod.ts'

/** A template in the editor: the form's values, steps and inputs as JSON text. */
export interface TemplateDraft {
  id?: string
  name: string
  category: string
  description: string
  steps: string
  inputs: string
  advanced: boolean
  published: boolean
}

/** The steps in words as the gallery will show them, or why they cannot be shown yet. */
function preview(stepsText: string, inputsText: string): { lines: string[]; problem: string | null } {
  try {
    const steps = JSON.parse(stepsText || '[]') as unknown
    const inputs = z.array(templateInputSchema).safeParse(JSON.parse(inputsText || '[]'))
    if (!Array.isArray(steps)) return { lines: [], problem: 'Steps must be a list, as [ … ].' }
    if (!inputs.success) return { lines: [], problem: `Inputs: ${inputs.error.issues[0]?.message ?? 'not a list of inputs'}` }
    const checked = checkTemplateSteps(steps, inputs.data)
    if (!checked.ok) return { lines: [], problem: checked.issues[0]?.message ?? 'The steps are not valid.' }
    return { lines: previewSteps(checked.steps, inputs.data), problem: null }
  } catch {
    return { lines: [], problem: 'Steps and inputs must be JSON.' }
  }
}

/**
 * New Template / Edit. Steps are version-2 JSON (as the builder's Export JSON writes them) whose
 * text may hold inputs as {{name}}; inputs are a JSON list of { name, label, example, defaultValue,
 * required }. The preview checks both as the server will, with the example values filled in.
 */
export function TemplateDialog({ draft, onClose }: { draft: TemplateDraft; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data, { success: onClose })
  const [steps, setSteps] = useState(draft.steps)
  const [inputs, setInputs] = useState(draft.inputs)
  const editing = Boolean(draft.id)
  const shown = preview(steps, inputs)
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-5xl">
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit Template' : 'New Template'}</DialogTitle>
          <DialogDescription>
            Steps as JSON (the builder’s Export JSON writes them); write an input as {'{{name}}'} inside a step’s text or address.
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value={editing ? 'update-template' : 'create-template'} />
          {draft.id ? <input type="hidden" name="templateId" value={draft.id} /> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="template-name">Name</Label>
              <Input id="template-name" name="name" defaultValue={draft.name} required maxLength={100} />
            </div>
            <div className="space-y-2">
              <Label htmlFor="template-category">Category</Label>
              <Select id="template-category" name="category" defaultValue={draft.category}>
                {TEMPLATE_CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {TEMPLATE_CATEGORY_NAMES[category]}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          <div className="space-y-2">
            <Label htmlFor="template-description">Description</Label>
            <Textarea id="template-description" name="description" defaultValue={draft.description} rows={2} maxLength={1000} />
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="template-inputs">Inputs (JSON)</Label>
              <Textarea
                id="template-inputs"
                name="inputs"
                value={inputs}
                onChange={(event) => setInputs(event.target.value)}
                rows={6}
                className="font-mono text-xs"
              />
              <Label htmlFor="template-steps">Steps (JSON)</Label>
              <Textarea
                id="template-steps"
                name="steps"
                value={steps}
                onChange={(event) => setSteps(event.target.value)}
                rows={10}
                className="font-mono text-xs"
              />
            </div>
            <div className="space-y-2">
              <p className="text-sm font-medium" id="template-preview-label">
                Preview (with the examples)
              </p>
              <div
                aria-labelledby="template-preview-label"
                role="region"
                className="max-h-[26rem] overflow-y-auto rounded-md border p-4 text-sm"
              >
                {shown.problem ? (
                  <p className="text-destructive">{shown.problem}</p>
                ) : (
                  <ol className="list-decimal space-y-1 pl-5">
                    {shown.lines.map((line, index) => (
                      <li key={index}>{line}</li>
                    ))}
                  </ol>
                )}
              </div>
            </div>
          </div>
          <div className="flex flex-wrap gap-6">
            <label className="flex items-center gap-2 text-sm">
              <input name="advanced" type="checkbox" defaultChecked={draft.advanced} className="size-4 accent-primary" />
              Advanced (only plans with advanced templates)
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input name="published" type="checkbox" defaultChecked={draft.published} className="size-4 accent-primary" />
              Published
            </label>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={fetcher.state !== 'idle'}>
              {fetcher.state !== 'idle' ? 'Saving...' : editing ? 'Save Template' : 'Create Template'}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  )
}
