import { browser } from 'wxt/browser'
import type { RecorderMessage, RecorderStopped } from '../messages.ts'
import type { RecordedStep } from '../recorder/recording-steps.ts'

const RECORDER_SCRIPT = '/content-scripts/recorder.js'

async function framesOf(tabId: number): Promise<number[]> {
  const frames = await browser.webNavigation.getAllFrames({ tabId }).catch(() => null)
  return frames?.length ? frames.map((frame) => frame.frameId) : [0]
}

const tell = <T>(tabId: number, frameId: number, message: RecorderMessage) =>
  browser.tabs.sendMessage(tabId, message, { frameId }) as Promise<T>

/**
 * Starts the recorders in every frame of a tab. A tab opened before the extension was installed
 * has none yet: they are loaded then, and ask the background whether to record (they will).
 * Throws when the page may not be recorded (the browser's own pages, the extension store).
 */
export async function startTabRecorders(tabId: number): Promise<void> {
  const frames = await framesOf(tabId)
  const started = await Promise.all(
    frames.map((frameId) =>
      tell(tabId, frameId, { type: 'recorder/start' }).then(
        () => true,
        () => false,
      ),
    ),
  )
  if (started.every(Boolean)) return
  await browser.scripting.executeScript({ target: { tabId, allFrames: true }, files: [RECORDER_SCRIPT] })
}

/** Stops the recorders in every frame of a tab, with the steps they were still holding. */
export async function stopTabRecorders(tabId: number): Promise<RecordedStep[]> {
  const frames = await framesOf(tabId)
  const answers = await Promise.all(
    frames.map((frameId) => tell<RecorderStopped | undefined>(tabId, frameId, { type: 'recorder/stop' }).catch(() => undefined)),
  )
  return answers.flatMap((answer) => answer?.steps ?? [])
}
