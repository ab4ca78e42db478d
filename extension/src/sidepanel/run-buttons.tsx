import { useId, useRef, useState } from 'react'
import { runPageUrl, startRun } from '../aether-api/runs-api.ts'
import { runInTab } from '../runner/run-in-tab.ts'
import type { AutomationSummary, Connection } from '../storage/stored-items.ts'
import { currentTab } from './current-tab.ts'
import { messageForError } from './api-errors.ts'

type RunState =
  | { kind: 'idle' }
  | { kind: 'starting' }
  | { kind: 'running'; runId: string; step: number; total: number }
  | { kind: 'ended'; runId: string; where: 'client' | 'cloud'; text: string; failed: boolean }
  | { kind: 'refused'; text: string }

/** Runs an automation in this browser's current tab or in the cloud, and links to the run in Run History. */
export function RunButtons({ connection, automation }: { connection: Connection; automation: AutomationSummary }) {
  const [state, setState] = useState<RunState>({ kind: 'idle' })
  // The values of the inputs its steps ask for ({{input.name}}): given with either run.
  const inputNames = automation.inputNames ?? []
  const [inputs, setInputs] = useState<Record<string, string>>({})
  const given = () => Object.fromEntries(inputNames.map((name) => [name, inputs[name] ?? '']))
  const fieldId = useId()
  const stopped = useRef(false)
  const busy = state.kind === 'starting' || state.kind === 'running'

  const runHere = async () => {
    setState({ kind: 'starting' })
    stopped.current = false
    try {
      const tab = await currentTab()
      if (tab?.id === undefined) throw new Error('There is no tab to run it in.')
      const run = await startRun(connection, automation.id, 'client', given())
      const total = run.steps.length
      setState({ kind: 'running', runId: run.id, step: 0, total })
      const outcome = await runInTab(connection, run, tab.id, {
        cancelled: () => stopped.current,
        onStep: (step) => setState({ kind: 'running', runId: run.id, step, total }),
      })
      const text =
        outcome.status === 'succeeded'
          ? `Run succeeded (${outcome.actionsPerformed} steps).`
          : outcome.status === 'cancelled'
            ? 'Run stopped.'
            : `Run failed: ${outcome.error ?? 'unknown error'}`
      setState({ kind: 'ended', runId: run.id, where: 'client', text, failed: outcome.status !== 'succeeded' })
    } catch (error) {
      setState({ kind: 'refused', text: await messageForError(error) })
    }
  }
  const runInCloud = async () => {
    setState({ kind: 'starting' })
    try {
      const run = await startRun(connection, automation.id, 'cloud', given())
      setState({ kind: 'ended', runId: run.id, where: 'cloud', text: 'Started in the cloud.', failed: false })
    } catch (error) {
      setState({ kind: 'refused', text: await messageForError(error) })
    }
  }

  return (
    <div className="run-buttons">
      {inputNames.length > 0 && (
        <fieldset className="run-inputs">
          <legend>Inputs of {automation.name}</legend>
          {inputNames.map((name, index) => (
            <div key={name} className="field">
              <label htmlFor={`${fieldId}-${index}`}>{name}</label>
              <input
                id={`${fieldId}-${index}`}
                value={inputs[name] ?? ''}
                maxLength={2000}
                onChange={(event) => {
                  const value = event.currentTarget.value
                  setInputs((current) => ({ ...current, [name]: value }))
                }}
              />
            </div>
          ))}
        </fieldset>
      )}
      <button type="button" disabled={busy} onClick={() => void runHere()} aria-label={`Run ${automation.name} in this browser`}>
        Run
      </button>{' '}
      <button type="button" disabled={busy} onClick={() => void runInCloud()} aria-label={`Run ${automation.name} in the cloud`}>
        Run in cloud
      </button>
      {state.kind === 'running' && (
        <p role="status">
          Running step {state.step} of {state.total}…{' '}
          <button type="button" onClick={() => (stopped.current = true)}>
            Stop
          </button>
        </p>
      )}
      {state.kind === 'ended' && (
        <p role="status" className={state.failed ? 'error' : undefined}>
          {state.text}{' '}
          <a href={runPageUrl(connection, state.runId)} target="_blank" rel="noreferrer">
            {state.where === 'cloud' ? 'Open the cloud run' : 'Open the run'}
          </a>
        </p>
      )}
      {state.kind === 'refused' && (
        <p role="alert" className="error">
          {state.text}
        </p>
      )}
    </div>
  )
}
