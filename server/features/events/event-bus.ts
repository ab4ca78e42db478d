import { EventEmitter } from 'node:events'

export interface InquiryEvent {
  type: 'created' | 'updated' | 'deleted'
  id: string
  name?: string
}

/** A run changed (queued, started, progressed, finished); pages re-read it. */
export interface RunEvent {
  id: string
  userId: string
  status: string
  automationId: string | null
}

export interface BusEvents {
  inquiry: InquiryEvent
  run: RunEvent
}

/**
 * Server-side events that pages follow live (server-sent events). In-process for now: one
 * process sees its own events. Spreading them across processes goes behind the same two calls.
 */
export function createEventBus() {
  const emitter = new EventEmitter()
  // Every open admin page listens; more than Node's default of 10 is normal.
  emitter.setMaxListeners(0)
  return {
    publish<K extends keyof BusEvents>(topic: K, event: BusEvents[K]): void {
      emitter.emit(topic, event)
    },
    subscribe<K extends keyof BusEvents>(topic: K, listener: (event: BusEvents[K]) => void): () => void {
      emitter.on(topic, listener)
      return () => emitter.off(topic, listener)
    },
  }
}

export type EventBus = ReturnType<typeof createEventBus>
