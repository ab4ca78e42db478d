import { useState, type FormEvent } from 'react'
import { placeholdersOf } from '#common/step-placeholders.ts'
import { saveAutomation } from '../aether-api/automations-api.ts'
import type { AutomationSummary, Connection, Recording } from '../storage/stored-items.ts'
import { messageForError } from './api-errors.ts'
import { callBackground } from './background-call.ts'
import { refreshAutomations } from './refresh-automations.ts'

function suggestedName(recording: Recording): string {
  const first = recording.steps.find((step) => step.type === 'navigate')
  const site = first?.type === 'navigate' && URL.canParse(first.url) ? new URL(first.url).hostname : null
  return site ? `Recorded on ${site}` : 'Recorded automation'
}

/** Saves a stopped recording as an automation of the connected workspace; the recording is then discarded. */
export function SaveRecordingForm({
  recording,
  connection,
  onSaved,
}: {
  recording: Recording
  connection: Connection
  onSaved: (automation: AutomationSummary) => void
}) {
  const [name, setName] = useState(() => suggestedName(recording))
  const [saving, setSaving] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  async function save(event: FormEvent) {
    event.preventDefault()
    setSaving(true)
    setProblem(null)
    try {
      const automation = await saveAutomation(connection, { name: name.trim(), steps: recording.steps })
      onSaved(automation)
      await callBackground({ type: 'recording/discard' })
      await refreshAutomations(connection).catch(() => undefined)
    } catch (error) {
      setProblem(await messageForError(error))
    } finally {
      setSaving(false)
    }
  }

  const secrets = placeholdersOf(recording.steps).filter((placeholder) => placeholder.kind === 'secrets')
  const firstPage = recording.steps.find((step) => step.type === 'navigate')
  const site = firstPage?.type === 'navigate' && URL.canParse(firstPage.url) ? new URL(firstPage.url).origin : null
  return (
    <form onSubmit={(event) => void save(event)}>
      {secrets.length > 0 && (
        <p className="muted">
          Passwords are typed from your workspace’s vault, never recorded. Before saving, store{' '}
          {secrets.map((secret) => secret.name).join(', ')} in the{' '}
          <a href={`${connection.serverUrl}/workspace/vault`} target="_blank" rel="noreferrer">
            Vault
          </a>
          , with the sites {secrets.length === 1 ? 'it is' : 'they are'} typed on{site ? ` (such as ${site})` : ''}: a run types a secret on
          those sites only.
        </p>
      )}
      <label>
        Name
        <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} />
      </label>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="primary" disabled={saving || !recording.steps.length || !name.trim()}>
        {saving ? 'Saving…' : 'Save as automation'}
      </button>
    </form>
  )
}
