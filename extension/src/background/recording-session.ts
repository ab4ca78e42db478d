import type { AutomationStep } from '#common/automation-steps.ts'
import { navigationStep, type CommittedNavigation } from '../recorder/navigation-step.ts'
import { withRecordedStep, type RecordedStep } from '../recorder/recording-steps.ts'
import { recordingItem, type Recording } from '../storage/stored-items.ts'

/** How the session reaches the recorders in a tab (tab-recorders.ts; the tests give their own). */
export interface TabRecorders {
  start(tabId: number): Promise<void>
  stop(tabId: number): Promise<RecordedStep[]>
}

const withSteps = (steps: readonly AutomationStep[], added: readonly RecordedStep[]) => added.reduce(withRecordedStep, [...steps])

/**
 * The recording, kept in chrome.storage.local (it survives the service worker stopping and the
 * browser restarting). Only the background changes it, one change at a time: steps arrive from
 * several frames at once.
 */
export function createRecordingSession(tabs: TabRecorders) {
  let queue: Promise<unknown> = Promise.resolve()
  const change = (next: (current: Recording | null) => Promise<Recording | null> | Recording | null) => {
    const done = queue.then(async () => {
      const current = await recordingItem.getValue()
      const changed = await next(current)
      if (changed !== current) await recordingItem.setValue(changed)
    })
    queue = done.catch(() => undefined)
    return done
  }
  const recordingIn = (current: Recording | null, tabId: number | undefined): current is Recording =>
    current?.status === 'recording' && tabId !== undefined && current.tabId === tabId

  return {
    /** Starts recording in a tab, or goes on with a stopped recording there; the page it shows is the first step. */
    start(tabId: number, pageUrl: string | undefined) {
      return change(async (current) => {
        if (current?.status === 'recording' && current.tabId !== null && current.tabId !== tabId) {
          await tabs.stop(current.tabId).catch(() => [])
        }
        const opened = pageUrl ? navigationStep({ frameId: 0, url: pageUrl, transitionType: 'typed', transitionQualifiers: [] }) : null
        const recording: Recording = {
          status: 'recording',
          tabId,
          startedAt: current?.startedAt ?? new Date().toISOString(),
          steps: withSteps(current?.steps ?? [], opened ? [opened] : []),
        }
        await recordingItem.setValue(recording)
        try {
          await tabs.start(tabId)
        } catch (error) {
          await recordingItem.setValue(current ? { ...current, status: 'stopped', tabId: null } : null)
          throw error
        }
        return recording
      })
    },
    /** Stops recording; the steps the recorders still held are added. */
    stop() {
      return change(async (current) => {
        if (current?.status !== 'recording') return current
        const held = current.tabId === null ? [] : await tabs.stop(current.tabId).catch(() => [])
        return { ...current, status: 'stopped', tabId: null, steps: withSteps(current.steps, held) }
      })
    },
    discard() {
      return change(async (current) => {
        if (current?.status === 'recording' && current.tabId !== null) await tabs.stop(current.tabId).catch(() => [])
        return null
      })
    },
    /** Whether a recorder loaded in this tab should record. */
    async isRecording(tabId: number | undefined) {
      await queue
      return recordingIn(await recordingItem.getValue(), tabId)
    },
    addStep(tabId: number | undefined, step: RecordedStep) {
      return change((current) => (recordingIn(current, tabId) ? { ...current, steps: withSteps(current.steps, [step]) } : current))
    },
    /** A page opened in a tab: a step when the member opened it themselves (navigation-step.ts). */
    navigated(tabId: number, navigation: CommittedNavigation) {
      return change((current) => {
        if (!recordingIn(current, tabId)) return current
        const step = navigationStep(navigation)
        return step ? { ...current, steps: withSteps(current.steps, [step]) } : current
      })
    },
    tabClosed(tabId: number) {
      return change((current) => (recordingIn(current, tabId) ? { ...current, status: 'stopped', tabId: null } : current))
    },
    /** After a browser restart no tab records: what was being recorded is an unfinished recording. */
    browserStarted() {
      return change((current) => (current?.status === 'recording' ? { ...current, status: 'stopped', tabId: null } : current))
    },
  }
}
