/**
 * Changes of what public pages show, as the database announces them: the trigger that moves
 * public_content_version also notifies this channel, delivered at commit to every connection
 * that listens (migration 0036, docs/decisions/050).
 */
export const CONTENT_CHANNEL = 'aether_public_content'

export interface ContentChanges {
  /**
   * A number that grows with every change this process has heard of; null while it could miss
   * one (no connection listens: at start, or while the database is out of reach), and then the
   * version has to be read.
   */
  seen(): number | null
}

export interface ContentChangeCounter extends ContentChanges {
  /** A notification arrived. */
  changed(): void
  /** Whether a connection listens now; either way anything may have changed meanwhile. */
  listening(on: boolean): void
}

export function contentChangeCounter(): ContentChangeCounter {
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
