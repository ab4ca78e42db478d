import { browser } from 'wxt/browser'
import type { BackgroundAnswer, BackgroundMessage } from '../messages.ts'

/** Asks the background to do something with the recording; throws with its reason when it could not. */
export async function callBackground(message: BackgroundMessage): Promise<void> {
  const answer = (await browser.runtime.sendMessage(message)) as BackgroundAnswer | undefined
  if (!answer?.ok) throw new Error(answer?.error ?? 'The extension did not answer.')
}
