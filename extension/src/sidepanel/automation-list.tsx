import { useEffect, useState } from 'react'
import { automationPageUrl } from '../aether-api/automations-api.ts'
import { automationListItem, type Connection } from '../storage/stored-items.ts'
import { messageForError } from './api-errors.ts'
import { refreshAutomations } from './refresh-automations.ts'
import { RunButtons } from './run-buttons.tsx'
import { useStoredItem } from './use-stored-item.ts'

/**
 * The workspace's automations: the kept list at once, listed again when the panel opens or comes
 * back into view (changes made on the website show up), and on Refresh.
 */
export function AutomationList({ connection }: { connection: Connection }) {
  const list = useStoredItem(automationListItem)
  const [problem, setProblem] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)

  useEffect(() => {
    let current = true
    const refresh = () => {
      setLoading(true)
      refreshAutomations(connection)
        .then(() => current && setProblem(null))
        .catch(async (error: unknown) => {
          const message = await messageForError(error)
          if (current) setProblem(message)
        })
        .finally(() => current && setLoading(false))
    }
    const onVisible = () => document.visibilityState === 'visible' && refresh()
    refresh()
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      current = false
      document.removeEventListener('visibilitychange', onVisible)
    }
  }, [connection])

  const items = list && list.serverUrl === connection.serverUrl && list.workspaceId === connection.workspace.id ? list.items : null
  return (
    <section aria-labelledby="automations-heading">
      <h2 id="automations-heading">Automations in {connection.workspace.name}</h2>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {items?.length === 0 && <p className="muted">No automations yet. Record one above.</p>}
      {items && items.length > 0 && (
        <ul aria-label="Automations">
          {items.map((automation) => (
            <li key={automation.id}>
              <a href={automationPageUrl(connection, automation.id)} target="_blank" rel="noreferrer">
                {automation.name}
              </a>{' '}
              <span className="muted">
                ({automation.stepCount} step{automation.stepCount === 1 ? '' : 's'}
                {automation.schedule ? ` · ${automation.schedule}` : ''})
              </span>
              <RunButtons connection={connection} automation={automation} />
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        disabled={loading}
        onClick={() => {
          setLoading(true)
          refreshAutomations(connection)
            .then(() => setProblem(null))
            .catch(async (error: unknown) => setProblem(await messageForError(error)))
            .finally(() => setLoading(false))
        }}
      >
        {loading ? 'Refreshing…' : 'Refresh'}
      </button>
    </section>
  )
}
