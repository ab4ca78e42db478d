import { fileURLToPath } from 'node:url'
import { build, type Rolldown } from 'vite'
import type { waitForDomQuiet } from '../../runner/dom-quiet.ts'
import type { maskSecretFields, performInPage } from '../../runner/page-actions.ts'
import type { resolveInPage } from '../../runner/resolve-target.ts'
import type { startRecorder } from '../event-recorder.ts'
import type { chooseTarget } from '../target-choice.ts'

/**
 * The recorder as one classic script for test pages (page.addInitScript): page-entry.ts and what it
 * imports, bundled as the extension bundles them, exposed as `window.aetherRecorder`.
 */
export async function recorderBundle(): Promise<string> {
  const result = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: fileURLToPath(new URL('./page-entry.ts', import.meta.url)), formats: ['iife'], name: 'aetherRecorder' },
    },
  })) as Rolldown.RolldownOutput[] | Rolldown.RolldownOutput
  const [output] = Array.isArray(result) ? result : [result]
  const chunk = output?.output.find((file) => file.type === 'chunk')
  if (!chunk || chunk.type !== 'chunk') throw new Error('The recorder bundle has no script')
  // Init scripts may run wrapped in a function, where `var aetherRecorder` stays local.
  return `${chunk.code}\nglobalThis.aetherRecorder = aetherRecorder;`
}

/** What the bundle puts on each page's window. */
export interface RecorderGlobal {
  chooseTarget: typeof chooseTarget
  startRecorder: typeof startRecorder
  resolveInPage: typeof resolveInPage
  performInPage: typeof performInPage
  maskSecretFields: typeof maskSecretFields
  waitForDomQuiet: typeof waitForDomQuiet
}
