import { useState } from 'react'
import { disconnectDevice } from '../aether-api/pairing-api.ts'
import { connectionItem, disconnectedItem, serverUrlItem } from '../storage/stored-items.ts'
import { DISCONNECTED_MESSAGE } from './api-errors.ts'
import { usePairing } from './use-pairing.ts'
import { useStoredItem } from './use-stored-item.ts'

/** Whether this browser is connected to a workspace, and the pairing that connects it. */
export function ConnectionSection() {
  const serverUrl = useStoredItem(serverUrlItem)
  const connection = useStoredItem(connectionItem)
  const disconnected = useStoredItem(disconnectedItem)
  const { pairing, problem, starting, connect, cancel, reopen } = usePairing(serverUrl)
  const [leaving, setLeaving] = useState(false)
  // What the last "Disconnect this browser" did: shown until the member connects again.
  const [left, setLeft] = useState<string | null>(null)

  if (connection)
    return (
      <section aria-labelledby="connection-heading">
        <h2 id="connection-heading">Connected</h2>
        <p>
          Workspace <strong>{connection.workspace.name}</strong>, as “{connection.device.name}”.
        </p>
        <p className="muted">{connection.serverUrl}</p>
        <button
          type="button"
          disabled={leaving}
          onClick={() => {
            setLeaving(true)
            void disconnectDevice(connection)
              .then(setLeft)
              .then(() => connectionItem.setValue(null))
              .finally(() => setLeaving(false))
          }}
        >
          {leaving ? 'Disconnecting…' : 'Disconnect this browser'}
        </button>
      </section>
    )

  if (pairing)
    return (
      <section aria-labelledby="connection-heading">
        <h2 id="connection-heading">Approve this browser</h2>
        <p>On the page that opened, check that it shows this code, then approve:</p>
        <p className="code" aria-label="Pairing code">
          {pairing.userCode}
        </p>
        <p className="muted" role="status">
          Waiting for your approval…
        </p>
        {problem && <p className="error">{problem}</p>}
        <div className="row">
          <button type="button" onClick={() => void reopen(pairing.verificationUrl)}>
            Open the page again
          </button>
          <button type="button" onClick={() => void cancel()}>
            Cancel
          </button>
        </div>
      </section>
    )

  return (
    <section aria-labelledby="connection-heading">
      <h2 id="connection-heading">Connect to Aether</h2>
      {left && (
        <p className="muted" role="status">
          {left}
        </p>
      )}
      {disconnected && !left && <p className="error">{DISCONNECTED_MESSAGE}. Connect again to save recordings to a workspace.</p>}
      <p>Connect this browser to your workspace to save what you record and see your automations.</p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <button
        type="button"
        className="primary"
        disabled={starting || !serverUrl}
        onClick={() => {
          setLeft(null)
          void connect()
        }}
      >
        {starting ? 'Connecting…' : 'Connect'}
      </button>
    </section>
  )
}
