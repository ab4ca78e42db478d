import { useEffect, useMemo, useRef, useState } from 'react'
import { BLOCK_OPENERS, parseSteps, type StepIssue, type StepType } from '#common/automation-steps.ts'
import { issuesByStep, moved, newStep, STEP_TYPE_LABELS, type ShownIssue, type StepData, type StepDraft } from './step-drafts.ts'

/** Where the focus goes after the steps changed: a step's first field, a move button, or 'Add step'. */
type FocusTarget = { key: string; on: 'first' | 'up' | 'down' } | { key: null; on: 'add' }

/**
 * The builder's steps as they are edited: the list (each step with a stable key), its problems
 * (parseSteps as it changes, or the server's for the steps it was sent), what to announce to a
 * screen reader, and where the focus goes after a change.
 */
export function useStepList(initial: StepData[], serverIssues: StepIssue[] | undefined) {
  const [steps, setSteps] = useState<StepDraft[]>(() => initial.map((data, index) => ({ key: `s${index}`, data })))
  const nextKey = useRef(initial.length)
  // Steps that have been complete once: from then on they show their problems as they are typed.
  // A new step stays quiet until a save is tried, so no message appears (and moves the buttons
  // below it) the moment the focus leaves it.
  const [armed, setArmed] = useState<ReadonlySet<string>>(() => new Set())
  // Tried saves with broken steps: each one re-renders, so the focus moves to the first problem.
  const [attempts, setAttempts] = useState(0)
  const attempted = attempts > 0
  const [announcement, setAnnouncement] = useState('')
  const listRef = useRef<HTMLOListElement>(null)
  const addRef = useRef<HTMLButtonElement>(null)
  const focusTarget = useRef<FocusTarget | null>(null)

  const json = JSON.stringify(steps.map((step) => step.data))
  // The server's issues speak for the steps it was sent, until they change.
  const [postedIssues, setPostedIssues] = useState<{ issues: StepIssue[]; json: string } | null>(null)
  const [seenIssues, setSeenIssues] = useState(serverIssues)
  if (seenIssues !== serverIssues) {
    setSeenIssues(serverIssues)
    setPostedIssues(serverIssues?.length ? { issues: serverIssues, json } : null)
  }

  const checked = useMemo(() => parseSteps(JSON.parse(json)), [json])
  const clientByStep = issuesByStep(checked.ok ? [] : checked.issues)
  const complete = steps.filter((step, index) => !clientByStep.has(index) && !armed.has(step.key))
  if (complete.length) setArmed(new Set([...armed, ...complete.map((step) => step.key)]))
  const issues = postedIssues?.json === json ? issuesByStep(postedIssues.issues) : clientByStep

  function moveFocus() {
    const target = focusTarget.current
    if (!target) return
    focusTarget.current = null
    if (target.on === 'add') {
      addRef.current?.focus()
      return
    }
    const item = listRef.current?.querySelector<HTMLElement>(`[data-step-key="${target.key}"]`)
    if (!item) return addRef.current?.focus()
    if (target.on === 'first') {
      const invalid = item.querySelector<HTMLElement>('[aria-invalid="true"]')
      ;(invalid ?? item.querySelector<HTMLElement>('input, textarea, select'))?.focus()
      return
    }
    const button = item.querySelector<HTMLButtonElement>(`[data-move="${target.on}"]`)
    const other = item.querySelector<HTMLButtonElement>(`[data-move="${target.on === 'up' ? 'down' : 'up'}"]`)
    ;(button && !button.disabled ? button : other)?.focus()
  }

  // After a change is rendered, the focus goes where it asked (a new step, a moved one, a problem).
  useEffect(() => moveFocus())

  const drafts = (list: StepData[]) => list.map((data) => ({ key: `n${nextKey.current++}`, data }))

  return {
    steps,
    json,
    checked,
    issues,
    attempted,
    announcement,
    listRef,
    addRef,
    announce: setAnnouncement,
    /** The problems a step shows now (none for a new step until it was complete once or a save was tried). */
    shownIssues: (key: string, index: number): ShownIssue[] =>
      attempted || armed.has(key) || postedIssues?.json === json ? (issues.get(index) ?? []) : [],

    /** A save was tried with broken steps: show every problem and go to the first. */
    refuseSave() {
      if (checked.ok) return
      setAttempts((count) => count + 1)
      const first = issuesByStep(checked.issues).keys().next().value
      const key = first === undefined || first < 0 ? null : steps[first]?.key
      setAnnouncement(
        `The steps have ${checked.issues.length === 1 ? 'a problem' : `${checked.issues.length} problems`}: ${checked.issues[0]?.message}`,
      )
      focusTarget.current = key ? { key, on: 'first' } : { key: null, on: 'add' }
    },

    update(index: number, data: StepData) {
      setSteps((current) => current.map((step, at) => (at === index ? { ...step, data } : step)))
    },

    /** Adds a step at `at` (the end when unset); a block comes with its end, so steps can be added inside it. */
    add(type: StepType, at: number = steps.length): { opener: string } | null {
      const key = `n${nextKey.current++}`
      const opensBlock = (BLOCK_OPENERS as readonly string[]).includes(type)
      const end = opensBlock ? [{ key: `n${nextKey.current++}`, data: newStep('end') }] : []
      const place = Math.max(0, Math.min(at, steps.length))
      setSteps((current) => [...current.slice(0, place), { key, data: newStep(type) }, ...end, ...current.slice(place)])
      focusTarget.current = { key, on: 'first' }
      setAnnouncement(`Step ${place + 1} added: ${STEP_TYPE_LABELS[type]}${opensBlock ? `, with its end as step ${place + 2}` : ''}.`)
      return opensBlock ? { opener: key } : null
    },

    move(index: number, direction: 'up' | 'down') {
      const to = direction === 'up' ? index - 1 : index + 1
      const step = steps[index]
      if (!step || to < 0 || to >= steps.length) return
      setSteps((current) => moved(current, index, to))
      focusTarget.current = { key: step.key, on: direction }
      setAnnouncement(`Step ${index + 1} moved ${direction} to position ${to + 1}.`)
    },

    remove(index: number) {
      const next = steps[index + 1] ?? steps[index - 1]
      setSteps((current) => current.filter((_, at) => at !== index))
      focusTarget.current = next ? { key: next.key, on: 'first' } : { key: null, on: 'add' }
      setAnnouncement(`Step ${index + 1} deleted.`)
    },

    /** Steps from elsewhere (an import, a plan, the inspector): instead of the list, or after it. */
    receive(list: StepData[], how: 'replace' | 'append', what: string) {
      const added = drafts(list)
      setSteps((current) => (how === 'replace' ? added : [...current, ...added]))
      // Steps that come in whole show their problems at once.
      setArmed((current) => new Set([...current, ...added.map((draft) => draft.key)]))
      focusTarget.current = added[0] ? { key: added[0].key, on: 'first' } : { key: null, on: 'add' }
      setAnnouncement(`${what}: ${list.length === 1 ? '1 step' : `${list.length} steps`}${how === 'append' ? ' added at the end' : ''}.`)
    },
  }
}

export type StepList = ReturnType<typeof useStepList>
