/**
 * Changes the database announces at commit (NOTIFY from statement triggers), delivered to every
 * connection that listens, and counted here as this process hears of them.
 */

/** What public pages show (migration 0036, docs/decisions/050): the page cache's version. */
export const CONTENT_CHANNEL = 'aether_public_content'

/**
 * The tables a session lookup reads (migration 0037, docs/decisions/055): sessions are kept until
 * one of them changes. Announced only with SESSION_DATA_SETTING on: PGlite's, which one process
 * uses, so that process hears of every change.
 */
export const SESSION_DATA_CHANNEL = 'aether_session_data'
export const SESSION_DATA_SETTING = 'aether.notify_session_data'

export interface HeardChanges {
  /**
   * A number that grows with every change this process has heard of; null while it could miss
   * one (no connection listens: at start, or while the database is out of reach), and then what
   * was kept cannot be trusted.
   */
  seen(): number | null
}

export interface ChangeCounter extends HeardChanges {
  /** A notification arrived. */
  changed(): void
  /** Whether a connection listens now; either way anything may have changed meanwhile. */
  listening(on: boolean): void
}

export function changeCounter(): ChangeCounter {
  let count = 0
  let listening = false
  return {
    seen: () => (listening ? count : null),
    changed: () => void count++,
    listening(on) {
      listening = on
      count++
    },
  }
}
