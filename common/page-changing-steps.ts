import type { AutomationStep } from './automation-steps.ts'

/**
 * Steps acting inside a page after which it may draw something new (load, re-render, send): the
 * next step looks at it once it settled. The cloud executor (server/browser/step-actions.ts) and
 * the extension's runner (extension/src/runner/run-in-tab.ts) wait after these; the cloud also
 * after the steps that move between pages and tabs.
 */
export const IN_PAGE_CHANGING_STEPS: readonly AutomationStep['type'][] = [
  'click',
  'type',
  'select',
  'press',
  'check',
  'doubleClick',
  'clear',
  'hover',
  'scroll',
]
