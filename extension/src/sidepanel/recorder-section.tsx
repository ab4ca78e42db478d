import { useState } from 'react'
import { automationPageUrl } from '../aether-api/automations-api.ts'
import { connectionItem, recordingItem, type AutomationSummary } from '../storage/stored-items.ts'
import { callBackground } from './background-call.ts'
import { currentTab } from './current-tab.ts'
import { RecordedSteps } from './recorded-steps.tsx'
import { SaveRecordingForm } from './save-recording-form.tsx'
import { useStoredItem } from './use-stored-item.ts'

/** Records in the current tab, shows the steps as they come, and saves or discards them. */
export function RecorderSection() {
  const recording = useStoredItem(recordingItem)
  const connection = useStoredItem(connectionItem)
  const [problem, setProblem] = useState<string | null>(null)
  const [saved, setSaved] = useState<AutomationSummary | null>(null)

  async function run(action: () => Promise<void>) {
    setProblem(null)
    setSaved(null)
    try {
      await action()
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error))
    }
  }
  const recordInThisTab = () =>
    run(async () => {
      const tab = await currentTab()
      if (tab?.id === undefined) throw new Error('There is no tab to record in.')
      await callBackground({ type: 'recording/start', tabId: tab.id })
    })
  const stop = () => run(() => callBackground({ type: 'recording/stop' }))
  const discard = () => run(() => callBackground({ type: 'recording/discard' }))

  const alert = problem && (
    <p className="error" role="alert">
      {problem}
    </p>
  )
  if (recording === undefined) return null
  if (!recording)
    return (
      <section aria-labelledby="recorder-heading">
        <h2 id="recorder-heading">Record your actions</h2>
        {saved && connection && (
          <p role="status">
            Saved “{saved.name}”.{' '}
            <a href={automationPageUrl(connection, saved.id)} target="_blank" rel="noreferrer">
              Open it on the website
            </a>
          </p>
        )}
        <p>Record what you do in this tab: clicks, typing, choices and pages you open become the steps of an automation.</p>
        {alert}
        <button type="button" className="primary" onClick={() => void recordInThisTab()}>
          Record
        </button>
      </section>
    )
  if (recording.status === 'recording')
    return (
      <section aria-labelledby="recorder-heading">
        <h2 id="recorder-heading">Recording…</h2>
        <RecordedSteps steps={recording.steps} />
        {alert}
        <button type="button" className="primary" onClick={() => void stop()}>
          Stop
        </button>
      </section>
    )
  return (
    <section aria-labelledby="recorder-heading">
      <h2 id="recorder-heading">Recording stopped</h2>
      <RecordedSteps steps={recording.steps} />
      {connection ? (
        <SaveRecordingForm recording={recording} connection={connection} onSaved={setSaved} />
      ) : (
        <p className="muted">Connect this browser to save the recording.</p>
      )}
      {alert}
      <div className="row">
        <button type="button" onClick={() => void recordInThisTab()}>
          Go on recording in this tab
        </button>
        <button type="button" onClick={() => void discard()}>
          Discard
        </button>
      </div>
    </section>
  )
}
