// What the recorder's tests load into each test page (recorder-bundle.ts builds it as one script):
// the same modules the content script runs, and the runner's resolver.
export { chooseTarget } from '../target-choice.ts'
export { startRecorder } from '../event-recorder.ts'
export { resolveInPage } from '../../runner/resolve-target.ts'
export { maskSecretFields, performInPage } from '../../runner/page-actions.ts'
export { waitForDomQuiet } from '../../runner/dom-quiet.ts'
