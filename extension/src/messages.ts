import type { RecordedStep } from './recorder/recording-steps.ts'
import type { PageStep } from './runner/page-actions.ts'

// The messages the extension's parts send each other (chrome.runtime and chrome.tabs messaging).

/** To the background: from the side panel (recording/…) and from the recorders in pages (recorder/…). */
export type BackgroundMessage =
  | { type: 'recording/start'; tabId: number }
  | { type: 'recording/stop' }
  | { type: 'recording/discard' }
  /** A recorder loaded in a page or frame asks whether its tab is being recorded. */
  | { type: 'recorder/ready' }
  | { type: 'recorder/step'; step: RecordedStep }

/** The background's answer: what was asked, or why it could not be done. */
export type BackgroundAnswer = { ok: true; recording?: boolean } | { ok: false; error: string }

/** To the recorders in a tab's frames. */
export type RecorderMessage = { type: 'recorder/start' } | { type: 'recorder/stop' }

/** A recorder's answer to recorder/stop: what it was still holding (a field being typed into). */
export interface RecorderStopped {
  steps: RecordedStep[]
}

/**
 * To the runner in a tab's top page: perform one step (extension/src/runner/page-actions.ts
 * answers a PageAnswer); or, after a step, answer once the page's elements stopped changing
 * (runner/dom-quiet.ts, within maxMs). Two messages, so a page that a step makes load another
 * has answered the step already.
 */
export type RunnerMessage =
  | { type: 'runner/perform'; step: PageStep; timeoutMs: number }
  | { type: 'runner/settle'; maxMs: number }
  /** Hide (on) or show again the fields given vault values, around a screenshot. */
  | { type: 'runner/mask'; on: boolean }
