import { useState, type FormEvent } from 'react'
import { serverAddress } from '../aether-api/api-client.ts'
import { automationListItem, connectionItem, pairingItem, serverUrlItem } from '../storage/stored-items.ts'
import { useStoredItem } from './use-stored-item.ts'

/** Which Aether server the extension talks to: ours by default, or a self-hosted one. */
export function SettingsSection() {
  const serverUrl = useStoredItem(serverUrlItem)
  const [draft, setDraft] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)

  async function save(event: FormEvent) {
    event.preventDefault()
    const address = serverAddress(draft ?? serverUrl ?? '')
    if (!address) {
      setProblem('Enter the server’s address, starting with http:// or https://.')
      return
    }
    setProblem(null)
    if (address !== serverUrl) {
      // A device credential belongs to one server: another server means connecting again.
      await Promise.all([connectionItem.setValue(null), pairingItem.setValue(null), automationListItem.setValue(null)])
      await serverUrlItem.setValue(address)
    }
    setDraft(null)
    setSaved(true)
  }

  if (serverUrl === undefined) return null
  return (
    <details>
      <summary>Settings</summary>
      <form onSubmit={(event) => void save(event)}>
        <label>
          Aether server
          <input
            type="url"
            value={draft ?? serverUrl}
            onChange={(event) => {
              setDraft(event.target.value)
              setSaved(false)
            }}
            required
          />
        </label>
        <p className="muted">Self-hosting Aether? Enter your server’s address. Changing it disconnects this browser.</p>
        {problem && (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
        <button type="submit">Save</button> {saved && <span role="status">Saved.</span>}
      </form>
    </details>
  )
}
