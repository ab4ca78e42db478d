import { useEffect, useState } from 'react'
import { browser } from 'wxt/browser'
import { deviceName } from '../aether-api/device-name.ts'
import { pollPairing, startPairing } from '../aether-api/pairing-api.ts'
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
 * to approve it; while the pairing waits (kept in storage, so a reopened panel goes on) the
 * server is asked every `interval` seconds until it answers with the credential, or the code
 * expires or is declined.
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
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const finish = async (message: string | null) => {
      await pairingItem.setValue(null)
      if (!stopped) setProblem(message)
    }
    const poll = async () => {
      if (stopped) return
      if (Date.now() >= pairing.expiresAt) return finish(OVER.expired)
      try {
        const answer = await pollPairing(pairing)
        if (stopped) return
        if (answer.state === 'approved') {
          await connectionItem.setValue(answer.connection)
          await disconnectedItem.setValue(false)
          await finish(null)
          await refreshAutomations(answer.connection).catch(() => undefined)
          return
        }
        if (answer.state !== 'pending') return finish(OVER[answer.state])
        setProblem(null)
        // Asked to slow down: 5 s more between questions (the stored pairing changes, and this effect starts again with it).
        if (answer.slowDown) return pairingItem.setValue({ ...pairing, intervalMs: pairing.intervalMs + 5_000 })
      } catch (error) {
        // The server may be restarting or the network down: go on asking until the code expires.
        if (!stopped) setProblem(await messageForError(error))
      }
      if (!stopped) timer = setTimeout(() => void poll(), pairing.intervalMs)
    }
    timer = setTimeout(() => void poll(), pairing.intervalMs)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
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
