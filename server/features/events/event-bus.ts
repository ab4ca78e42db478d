import { EventEmitter } from 'node:events'
import type { PersonInput } from '#common/person-help.ts'
import type { Notifications } from '#server/db/notifications.ts'

export interface InquiryEvent {
  type: 'created' | 'updated' | 'deleted'
  id: string
  name?: string
}

/** A run changed (queued, started, progressed, finished); pages re-read it. */
interface RunEvent {
  id: string
  /** Everyone working in this workspace sees it. */
  workspaceId: string
  status: string
  automationId: string | null
}

/** A page watches a cloud run's live view (docs/decisions/058): its worker keeps the screencast going. */
interface LiveWatchEvent {
  runId: string
}

/** A cloud run's live view has a new picture in the run's folder, or was paused: the pages watching it read it. */
export interface LiveFrameEvent {
  runId: string
  seq: number
  paused: boolean
  /** The page's size in CSS pixels. */
  width: number
  height: number
}

/** A member acts for a run waiting for a person (docs/decisions/059): its worker applies it. */
export interface PersonActionEvent {
  runId: string
  /** The member's e-mail address, as the run's log names them. */
  who: string
  action: { kind: 'continue' } | { kind: 'input'; input: PersonInput }
}

export interface BusEvents {
  inquiry: InquiryEvent
  run: RunEvent
  liveWatch: LiveWatchEvent
  liveFrame: LiveFrameEvent
  personAction: PersonActionEvent
}

/**
 * Server-side events that pages follow live (server-sent events). They travel through the
 * database's notifications, so a page connected to one server process sees what happened in
 * another (PostgreSQL LISTEN/NOTIFY; in-process on PGlite). Delivery is best effort: a page
 * re-reads its data when told, so a lost event only delays it until the next one or a reload.
 */
export function createEventBus(notifications: Notifications) {
  const local = new EventEmitter()
  // Every open admin or history page listens; more than Node's default of 10 is normal.
  local.setMaxListeners(0)
  notifications.subscribe((payload) => {
    try {
      const { topic, event } = JSON.parse(payload) as { topic: keyof BusEvents; event: unknown }
      local.emit(topic, event)
    } catch {
      // Not one of ours (another application on the channel): ignore it.
    }
  })
  return {
    publish<K extends keyof BusEvents>(topic: K, event: BusEvents[K]): void {
      void notifications.notify(JSON.stringify({ topic, event })).catch(() => {})
    },
    subscribe<K extends keyof BusEvents>(topic: K, listener: (event: BusEvents[K]) => void): () => void {
      local.on(topic, listener)
      return () => local.off(topic, listener)
    },
  }
}

export type EventBus = ReturnType<typeof createEventBus>
