import { Download, Plus } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { STEP_TYPES, type StepType } from '#common/automation-steps.ts'
import { blockDepths, blockStructure } from '#common/step-blocks.ts'
import { ImportStepsDialog } from './import-steps-dialog.tsx'
import { StepCard } from './step-card.tsx'
import { STEP_TYPE_LABELS } from './step-drafts.ts'
import type { StepList } from './use-step-list.ts'

/** The steps editor: the list of steps, each editable and movable, 'Add step', import and export. */
export function StepsCard({
  list,
  plan,
  onExport,
}: {
  list: StepList
  plan: { name: string; actionLimit: number | null }
  onExport: () => void
}) {
  const [newType, setNewType] = useState<StepType>('navigate')
  // Where 'Add step' puts the step: at the end, or inside a block (the key of its first step).
  const [inside, setInside] = useState<string>('')
  const { steps, listRef, addRef } = list
  const overLimit = plan.actionLimit !== null && steps.length > plan.actionLimit
  const listIssues = list.issues.get(-1) ?? []
  const depths = blockDepths(steps.map((step) => step.data))
  const { blocks } = blockStructure(steps.map((step) => step.data))
  const places = [...blocks.entries()]
    .filter(([index, block]) => block.opener === index && block.end > index)
    .map(([index, block]) => ({ key: steps[index]?.key ?? '', index, end: block.end }))
  const chosen = places.find((place) => place.key === inside)
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="space-y-1.5">
          <CardTitle level={2} id="steps-heading">
            Steps
          </CardTitle>
          <CardDescription>
            {steps.length === 1 ? '1 step' : `${steps.length} steps`}
            {plan.actionLimit !== null ? ` · the ${plan.name} plan allows up to ${plan.actionLimit} actions per automation` : ''}
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <ImportStepsDialog onImport={(imported) => list.receive(imported, 'replace', 'Imported')} />
          <Button type="button" variant="outline" size="sm" onClick={onExport}>
            <Download aria-hidden="true" /> Export JSON
          </Button>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        {overLimit ? (
          <p role="alert" className="rounded-md border border-destructive/60 bg-destructive/10 p-3 text-sm">
            The {plan.name} plan allows up to {plan.actionLimit} actions per automation; this one has {steps.length}.{' '}
            <Link to="/billing" className="font-medium underline underline-offset-4">
              Upgrade for unlimited actions
            </Link>
          </p>
        ) : null}
        {listIssues.length && list.attempted ? (
          <p role="alert" className="text-sm text-destructive">
            {listIssues[0]?.message}
          </p>
        ) : null}
        {steps.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No steps yet. Describe the task or inspect a page above, add the first step below, or import steps as JSON.
          </p>
        ) : (
          <ol ref={listRef} aria-labelledby="steps-heading" className="space-y-3">
            {steps.map((step, index) => (
              <StepCard
                key={step.key}
                depth={depths[index]}
                stepKey={step.key}
                index={index}
                count={steps.length}
                step={step.data}
                issues={list.shownIssues(step.key, index)}
                onChange={(data) => list.update(index, data)}
                onMove={(direction) => list.move(index, direction)}
                onDelete={() => list.remove(index)}
              />
            ))}
          </ol>
        )}
        <div className="flex flex-wrap items-end gap-2 border-t pt-4">
          <div className="space-y-1.5">
            <Label htmlFor="new-step-type">Step type</Label>
            <Select
              id="new-step-type"
              value={newType}
              onChange={(event) => setNewType(event.target.value as StepType)}
              className="min-w-48"
            >
              {STEP_TYPES.map((type) => (
                <option key={type} value={type}>
                  {STEP_TYPE_LABELS[type]}
                </option>
              ))}
            </Select>
          </div>
          {places.length ? (
            <div className="space-y-1.5">
              <Label htmlFor="new-step-place">Add it</Label>
              <Select
                id="new-step-place"
                value={chosen ? inside : ''}
                onChange={(event) => setInside(event.target.value)}
                className="min-w-48"
              >
                <option value="">At the end of the steps</option>
                {places.map((place) => (
                  <option key={place.key} value={place.key}>
                    Inside step {place.index + 1} ({STEP_TYPE_LABELS[steps[place.index]?.data.type ?? 'end']}), at its end
                  </option>
                ))}
              </Select>
            </div>
          ) : null}
          <Button
            ref={addRef}
            type="button"
            variant="secondary"
            onClick={() => {
              const added = list.add(newType, chosen ? chosen.end : undefined)
              if (added) setInside(added.opener)
            }}
          >
            <Plus aria-hidden="true" /> Add step
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}
