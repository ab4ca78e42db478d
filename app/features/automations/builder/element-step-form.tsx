import { Plus } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import type { AutomationStep } from '#common/automation-steps.ts'
import { describeTarget, type Target } from '#common/targets.ts'
import type { Inspection } from '#server/features/planning/inspector.ts'

type Element = Inspection['elements'][number]
type Action = 'click' | 'type' | 'select' | 'extract' | 'wait' | 'assertText'

const ACTIONS: Record<Action, string> = {
  click: 'Click it',
  type: 'Type text into it',
  select: 'Choose an option in it',
  extract: 'Extract its text',
  wait: 'Wait for it to appear',
  assertText: 'Check that it shows a text',
}

/** The actions that make sense for an element, the likeliest first. */
function actionsFor(element: Element): Action[] {
  if (element.tag === 'select') return ['select', 'extract', 'wait']
  const typable =
    element.tag === 'textarea' ||
    (element.tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image'].includes(element.type ?? 'text'))
  if (typable) return ['type', 'click', 'wait']
  if (element.interactive) return ['click', 'extract', 'wait', 'assertText']
  return ['extract', 'assertText', 'wait', 'click']
}

const fieldFrom = (words: string) =>
  words
    .replace(/[^A-Za-z0-9_ -]+/g, ' ')
    .trim()
    .replace(/^[^A-Za-z_]+/, '')
    .slice(0, 40)
    .trim() || 'value'

/**
 * What to do with the element picked on an inspected page: the member chooses the action (and
 * the text, option or field name it needs) and adds it as a step with the element's target.
 */
export function ElementStepForm({ element, onAdd }: { element: Element; onAdd: (step: AutomationStep) => void }) {
  const id = useId()
  const actions = actionsFor(element)
  const [action, setAction] = useState<Action>(actions[0] ?? 'click')
  const [text, setText] = useState('')
  const [option, setOption] = useState(element.options?.[0] ?? '')
  const [field, setField] = useState(fieldFrom(element.label ?? element.name ?? element.text ?? ''))
  const target = element.target as Target

  const step = (): AutomationStep | null => {
    switch (action) {
      case 'click':
        return { type: 'click', target }
      case 'type':
        return { type: 'type', target, text }
      case 'select':
        return option ? { type: 'select', target, value: option } : null
      case 'extract':
        return field.trim() ? { type: 'extract', target, field: field.trim() } : null
      case 'wait':
        return { type: 'wait', target }
      case 'assertText':
        return text.trim() ? { type: 'assertText', target, text: text.trim() } : null
    }
  }
  // Acting on one element needs a target that finds only it; reading may find several.
  const needsOne = action === 'click' || action === 'type' || action === 'select'
  const ready = needsOne && !element.checked ? null : step()

  return (
    <div className="space-y-3 rounded-md border bg-muted/30 p-3">
      <p className="text-sm">
        <span className="text-muted-foreground">Picked: </span>
        <span className="font-medium">{describeTarget(target)}</span>
      </p>
      {needsOne && !element.checked ? (
        <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
          Other elements on the page say the same, so a step could not tell this one apart. Pick another element, or add the step by hand
          below.
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-action`}>Step</Label>
          <Select id={`${id}-action`} value={action} onChange={(event) => setAction(event.target.value as Action)}>
            {actions.map((value) => (
              <option key={value} value={value}>
                {ACTIONS[value]}
              </option>
            ))}
          </Select>
        </div>
        {action === 'type' || action === 'assertText' ? (
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-text`}>{action === 'type' ? 'Text to type' : 'Text it must show'}</Label>
            <Input id={`${id}-text`} value={text} maxLength={1000} onChange={(event) => setText(event.target.value)} autoComplete="off" />
          </div>
        ) : null}
        {action === 'select' ? (
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-option`}>Option</Label>
            <Select id={`${id}-option`} value={option} onChange={(event) => setOption(event.target.value)}>
              {(element.options ?? []).map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </Select>
          </div>
        ) : null}
        {action === 'extract' ? (
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-field`}>Column name</Label>
            <Input id={`${id}-field`} value={field} maxLength={64} onChange={(event) => setField(event.target.value)} autoComplete="off" />
          </div>
        ) : null}
      </div>
      <Button type="button" size="sm" disabled={!ready} onClick={() => ready && onAdd(ready)}>
        <Plus aria-hidden="true" /> Add step
      </Button>
    </div>
  )
}
