import { useEffect, useState } from 'react'
import { browser } from 'wxt/browser'
import { PairingEndedError } from '#sdk'
import { deviceName } from '../aether-api/device-name.ts'
import { connectionWhenApproved, startPairing } from '../aether-api/pairing-api.ts'
import { connectionItem, disconnectedItem, pairingItem } from '../storage/stored-items.ts'
import { messageForError } from './api-errors.ts'
import { refreshAutomations } from './refresh-automations.ts'
import { useStoredItem } from './use-stored-item.ts'

const OVER = {
  expired: 'The code expired before it was approved. Connect again for a new one.',
  denied: 'The connection was declined on the website.',
}

/** This browser as the website's device list shows it. */
function thisBrowser() {
  const agent = navigator as Navigator & { userAgentData?: { brands?: { brand: string }[] } }
  return {
    name: deviceName({ userAgent: navigator.userAgent, brands: agent.userAgentData?.brands }),
    version: browser.runtime.getManifest().version,
  }
}

/**
 * Device pairing from the panel: Connect asks the server for a code and opens the website's page
 * to approve it; while the pairing waits (kept in storage, so a reopened panel goes on) the SDK's
 * pairing loop asks the server until it answers with the credential, or the code expires or is
 * declined. A server away meanwhile is said, and asked again.
 */
export function usePairing(serverUrl: string | undefined) {
  const pairing = useStoredItem(pairingItem)
  const [problem, setProblem] = useState<string | null>(null)
  const [starting, setStarting] = useState(false)

  async function connect() {
    if (!serverUrl) return
    setProblem(null)
    setStarting(true)
    try {
      const pending = await startPairing(serverUrl, thisBrowser())
      await pairingItem.setValue(pending)
      await browser.tabs.create({ url: pending.verificationUrl })
    } catch (error) {
      setProblem(await messageForError(error))
    } finally {
      setStarting(false)
    }
  }

  useEffect(() => {
    if (!pairing) return
    const stop = new AbortController()
    const say = (message: string | null) => {
      if (!stop.signal.aborted) setProblem(message)
    }
    const finish = async (message: string | null) => {
      await pairingItem.setValue(null)
      say(message)
    }
    connectionWhenApproved(pairing, {
      signal: stop.signal,
      onTrouble: (trouble) => (trouble ? void messageForError(trouble).then(say) : say(null)),
    })
      .then(async (connection) => {
        // Cancelled, or another server chosen, while the last question was out: that answer is no one's.
        if (stop.signal.aborted) return
        await connectionItem.setValue(connection)
        await disconnectedItem.setValue(false)
        await finish(null)
        await refreshAutomations(connection).catch(() => undefined)
      })
      .catch(async (error: unknown) => {
        if (stop.signal.aborted) return
        await finish(error instanceof PairingEndedError ? OVER[error.reason] : await messageForError(error))
      })
    return () => stop.abort()
  }, [pairing])

  return {
    pairing,
    problem,
    starting,
    connect,
    cancel: () => pairingItem.setValue(null),
    reopen: (url: string) => browser.tabs.create({ url }),
  }
}
