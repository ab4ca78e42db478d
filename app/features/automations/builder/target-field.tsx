import { ArrowUp, Plus, X } from 'lucide-react'
import { useState } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import {
  describeAlternative,
  MAX_TARGET_ALTERNATIVES,
  TARGET_KINDS,
  TARGET_ROLES,
  targetAlternativeSchema,
  type TargetKind,
} from '#common/targets.ts'
import { ContainerFields } from './container-fields.tsx'
import type { ShownIssue } from './step-drafts.ts'

type Alternative = Record<string, unknown> & { by?: unknown }

const KIND_LABELS: Record<TargetKind, string> = {
  role: 'Role and name',
  label: 'Label',
  placeholder: 'Placeholder',
  text: 'Visible text',
  testId: 'Test id',
  column: 'Table column',
  css: 'CSS selector',
  xpath: 'XPath',
}

/** The word field of each kind, and what it asks for. */
const WORD_FIELD: Record<TargetKind, { name: string; label: string; placeholder: string }> = {
  role: { name: 'name', label: 'Name', placeholder: 'Sign in' },
  label: { name: 'text', label: 'Label text', placeholder: 'Email address' },
  placeholder: { name: 'text', label: 'Placeholder text', placeholder: 'Search products' },
  text: { name: 'text', label: 'Text', placeholder: 'Add to cart' },
  testId: { name: 'id', label: 'Test id', placeholder: 'submit-order' },
  column: { name: 'header', label: 'Column header', placeholder: 'Price' },
  css: { name: 'selector', label: 'Selector', placeholder: '#email, .price' },
  xpath: { name: 'path', label: 'Path', placeholder: '//button[1]' },
}

/** The kinds whose ways may say where the element sits (docs/decisions/042). */
const PLACEABLE: readonly TargetKind[] = ['role', 'label', 'placeholder', 'text', 'testId']

/** A new alternative of a kind, its words empty. */
export function newAlternative(by: TargetKind): Alternative {
  if (by === 'role') return { by, role: 'button', name: '' }
  return { by, [WORD_FIELD[by].name]: '' }
}

const alternativesOf = (value: unknown): Alternative[] =>
  Array.isArray(value) ? value.filter((item): item is Alternative => typeof item === 'object' && item !== null) : []

/**
 * Which element a step acts on, as a person names it (common/targets.ts): the ways to find it,
 * in order, the first one said in words above them ('Button named “Sign in”'). The member picks
 * the kind (role and name, label, text…) and types the words; CSS and XPath are there as fallbacks.
 */
export function TargetField({
  id,
  label,
  value,
  issues,
  onChange,
}: {
  id: string
  label: string
  value: unknown
  /** The step's problems about its target ('target', 'target.0.text'…). */
  issues: ShownIssue[]
  onChange: (target: Alternative[]) => void
}) {
  const alternatives = alternativesOf(value)
  const first = targetAlternativeSchema.safeParse(alternatives[0])
  const issueAt = (index: number | null) =>
    issues.filter((issue) => (index === null ? issue.field === 'target' : issue.field?.startsWith(`target.${index}`)))
  const set = (index: number, next: Alternative) => onChange(alternatives.map((item, at) => (at === index ? next : item)))
  const listIssues = issueAt(null)
  // The fallbacks (CSS, XPath, other words) stay folded unless the member opens them or one has a problem.
  const [open, setOpen] = useState(false)
  const showFallbacks = open || alternatives.slice(1).some((_, index) => issueAt(index + 1).length > 0)

  return (
    <fieldset className="space-y-2 sm:col-span-2" aria-describedby={`${id}-words`}>
      <legend className="text-sm font-medium">{label}</legend>
      <p id={`${id}-words`} className="text-sm">
        {first.success ? (
          <>
            <span className="font-medium">{describeAlternative(first.data)}</span>
            {alternatives.length > 1 ? (
              <span className="text-muted-foreground">
                {' '}
                · then {alternatives.length - 1} fallback{alternatives.length === 2 ? '' : 's'}
              </span>
            ) : null}
          </>
        ) : (
          <span className="text-muted-foreground">Say how a person would find it: its role and name, its label, its text…</span>
        )}
      </p>
      <ol className="space-y-2">
        {alternatives
          .map((alternative, index) => ({ alternative, index }))
          .filter(({ index }) => index === 0 || showFallbacks)
          .map(({ alternative, index }) => {
            const by = (TARGET_KINDS as readonly unknown[]).includes(alternative.by) ? (alternative.by as TargetKind) : 'text'
            const word = WORD_FIELD[by]
            const rowId = `${id}-${index}`
            const rowIssues = issueAt(index)
            return (
              <li key={index} className="grid gap-2 rounded-md border p-2 sm:grid-cols-[10rem_1fr_auto]">
                <div className="space-y-1">
                  <Label htmlFor={`${rowId}-by`} className="text-xs">
                    {index === 0 ? 'Find it by' : `Or by (${index + 1})`}
                  </Label>
                  <Select id={`${rowId}-by`} value={by} onChange={(event) => set(index, newAlternative(event.target.value as TargetKind))}>
                    {TARGET_KINDS.map((kind) => (
                      <option key={kind} value={kind}>
                        {KIND_LABELS[kind]}
                      </option>
                    ))}
                  </Select>
                </div>
                <div className="flex flex-wrap gap-2">
                  {by === 'role' ? (
                    <div className="space-y-1">
                      <Label htmlFor={`${rowId}-role`} className="text-xs">
                        Role
                      </Label>
                      <Select
                        id={`${rowId}-role`}
                        value={typeof alternative.role === 'string' ? alternative.role : 'button'}
                        onChange={(event) => set(index, { ...alternative, role: event.target.value })}
                      >
                        {TARGET_ROLES.map((role) => (
                          <option key={role} value={role}>
                            {role}
                          </option>
                        ))}
                      </Select>
                    </div>
                  ) : null}
                  <div className="min-w-40 flex-1 space-y-1">
                    <Label htmlFor={`${rowId}-words`} className="text-xs">
                      {word.label}
                    </Label>
                    <Input
                      id={`${rowId}-words`}
                      value={typeof alternative[word.name] === 'string' ? (alternative[word.name] as string) : ''}
                      placeholder={word.placeholder}
                      autoComplete="off"
                      spellCheck={false}
                      className={by === 'css' || by === 'xpath' ? 'font-mono' : undefined}
                      aria-invalid={rowIssues.length ? true : undefined}
                      aria-describedby={rowIssues.length ? `${rowId}-error` : undefined}
                      onChange={(event) => {
                        const { [word.name]: _old, ...rest } = alternative
                        // A role's name is optional: left empty, the role alone is the way to find it.
                        set(index, by === 'role' && event.target.value === '' ? rest : { ...rest, [word.name]: event.target.value })
                      }}
                    />
                  </div>
                </div>
                <div className="flex items-end gap-1">
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Try way ${index + 1} first`}
                    title="Try this first"
                    disabled={index === 0}
                    onClick={() => onChange([alternative, ...alternatives.filter((_, at) => at !== index)])}
                  >
                    <ArrowUp aria-hidden="true" />
                  </Button>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove way ${index + 1}`}
                    title="Remove"
                    disabled={alternatives.length === 1}
                    onClick={() => onChange(alternatives.filter((_, at) => at !== index))}
                  >
                    <X aria-hidden="true" />
                  </Button>
                </div>
                {PLACEABLE.includes(by) ? (
                  <ContainerFields id={rowId} alternative={alternative} onChange={(next) => set(index, next)} />
                ) : null}
                {rowIssues.length ? (
                  <p id={`${rowId}-error`} className="text-sm text-destructive sm:col-span-3">
                    {rowIssues[0]?.message}
                  </p>
                ) : null}
              </li>
            )
          })}
      </ol>
      {listIssues.length ? <p className="text-sm text-destructive">{listIssues[0]?.message}</p> : null}
      <div className="flex flex-wrap gap-2">
        {alternatives.length > 1 ? (
          <Button type="button" variant="ghost" size="sm" aria-expanded={showFallbacks} onClick={() => setOpen(!showFallbacks)}>
            {showFallbacks ? 'Hide the fallbacks' : `Show the fallbacks (${alternatives.length - 1})`}
          </Button>
        ) : null}
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={alternatives.length >= MAX_TARGET_ALTERNATIVES}
          onClick={() => {
            setOpen(true)
            onChange([...alternatives, newAlternative(alternatives.length ? 'css' : 'text')])
          }}
        >
          <Plus aria-hidden="true" /> {alternatives.length ? 'Add a fallback' : 'Add a way to find it'}
        </Button>
      </div>
    </fieldset>
  )
}
