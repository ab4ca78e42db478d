import { useEffect, useRef } from 'react'
import { useNavigation, useRevalidator } from 'react-router'
import type { RunStatus } from '#common/automations.ts'
import { revalidateLatest } from '#app/lib/revalidate.ts'

export interface RunEvent {
  id: string
  status: RunStatus
  automationId: string | null
}

/** Events that arrive together (a run's progress reports) cause one reload. */
const SETTLE_MS = 250

/**
 * Follows the signed-in member's runs live (GET /api/runs/events, server-sent events): when a run
 * the page cares about changes, the page's loaders run again. Whenever the stream (re)connects
 * (its `ready` event) the page reads again too: a run can change between the page's load and the
 * stream's start (a cloud run refused at its first step finishes within a second), or while a
 * dropped connection is restored, and nothing would tell the page.
 */
export function useRunEvents(concerns: (event: RunEvent) => boolean) {
  const revalidator = useRevalidator()
  const navigating = useNavigation().state !== 'idle'
  // The latest callbacks, without reopening the stream whenever the page re-renders.
  const latest = useRef({ concerns, revalidate: revalidator.revalidate, navigating })
  useEffect(() => {
    latest.current = { concerns, revalidate: revalidator.revalidate, navigating }
  })
  useEffect(() => {
    const source = new EventSource('/api/runs/events')
    let timer: ReturnType<typeof setTimeout> | undefined
    const reloadSoon = () => {
      if (timer) return
      const settle = () => {
        // A reload during a navigation would cut it short (and lose its one-time flash toast):
        // wait until the page it leads to has arrived.
        if (latest.current.navigating) {
          timer = setTimeout(settle, SETTLE_MS)
          return
        }
        timer = undefined
        revalidateLatest(latest.current.revalidate)
      }
      timer = setTimeout(settle, SETTLE_MS)
    }
    source.addEventListener('ready', reloadSoon)
    source.addEventListener('run', (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as RunEvent
      if (latest.current.concerns(event)) reloadSoon()
    })
    return () => {
      clearTimeout(timer)
      source.close()
    }
  }, [])
}
