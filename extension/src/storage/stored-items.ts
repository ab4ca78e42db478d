import { storage } from 'wxt/utils/storage'
import type { AutomationStep } from '#common/automation-steps.ts'

// Everything the extension keeps, in chrome.storage.local: it survives a browser restart.

/** Set by the build (extension/wxt.config.ts): the address of the server that built and serves this extension. */
declare const __AETHER_SERVER_URL__: string | undefined

const builtFor =
  typeof __AETHER_SERVER_URL__ === 'string' && /^https?:\/\/[^\s]+$/i.test(__AETHER_SERVER_URL__) ? __AETHER_SERVER_URL__ : null

/** The server Settings start with: the one that built this extension, else a local one. */
export const DEFAULT_SERVER_URL = builtFor?.replace(/\/+$/, '') ?? 'http://localhost:3000'

/** Where the Aether server is (self-hosters set their own). */
export const serverUrlItem = storage.defineItem<string>('local:serverUrl', { fallback: DEFAULT_SERVER_URL })

/** This browser's device credential and what it belongs to (never the member's password or session). */
export interface Connection {
  serverUrl: string
  token: string
  device: { id: string; name: string }
  workspace: { id: string; name: string }
  /**
   * The private half of the key pair this browser made when it was paired: vault values reach it
   * sealed to it (docs/decisions/048). Absent in a connection made before: it gets none.
   */
  privateKey?: JsonWebKey
}
export const connectionItem = storage.defineItem<Connection | null>('local:connection', { fallback: null })

/** Set when the server answered 401 to the device's credential: the member revoked it on the website. */
export const disconnectedItem = storage.defineItem<boolean>('local:disconnected', { fallback: false })

/** A pairing waiting for the member's approval on the website (kept so a reopened panel goes on waiting). */
export interface PendingPairing {
  serverUrl: string
  pairingId: string
  userCode: string
  pollSecret: string
  verificationUrl: string
  expiresAt: number
  intervalMs: number
  /** The key pair made for this pairing: the public half goes with the poll that collects the token. */
  keys?: { publicKey: string; privateKey: JsonWebKey }
}
export const pairingItem = storage.defineItem<PendingPairing | null>('local:pairing', { fallback: null })

/**
 * The recording: going on in a tab, or stopped (by the member, or by a browser restart: an
 * unfinished recording the member can go on with, save or discard).
 */
export interface Recording {
  status: 'recording' | 'stopped'
  tabId: number | null
  steps: AutomationStep[]
  startedAt: string
}
export const recordingItem = storage.defineItem<Recording | null>('local:recording', { fallback: null })

/** Set once the background ran in this browser session (session storage is emptied when the browser closes). */
export const browserSessionItem = storage.defineItem<boolean>('session:backgroundStarted', { fallback: false })

/** The workspace's automations as last listed. */
export interface AutomationSummary {
  id: string
  name: string
  stepCount: number
  updatedAt: string
  /** Its schedule in words ("Weekdays at 09:00, Europe/Berlin"); null or absent (a list kept before): none. */
  schedule?: string | null
  /** The `{{input.name}}` values a run asks for, in order; absent in a list kept before: none. */
  inputNames?: string[]
}
export interface AutomationList {
  serverUrl: string
  workspaceId: string
  fetchedAt: string
  items: AutomationSummary[]
}
export const automationListItem = storage.defineItem<AutomationList | null>('local:automations', { fallback: null })
