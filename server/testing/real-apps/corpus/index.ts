import { JSONEDITOR_TASKS } from './jsoneditor.ts'
import { MAILDEV_TASKS } from './maildev.ts'
import { SWAGGER_TASKS } from './swagger-ui.ts'
import { TIDDLYWIKI_TASKS } from './tiddlywiki.ts'
import { TODOMVC_TASKS } from './todomvc.ts'
import type { RealAppTask } from './types.ts'

export type { RealAppTask, OutcomeCheck, RunEvidence } from './types.ts'

/** The real-app corpus: plain-English tasks over apps written by others, each judged by what its run did. */
export const REAL_APP_CORPUS: RealAppTask[] = [
  ...TODOMVC_TASKS,
  ...TIDDLYWIKI_TASKS,
  ...SWAGGER_TASKS,
  ...JSONEDITOR_TASKS,
  ...MAILDEV_TASKS,
]

/**
 * The tasks CI plans offline and runs (server/features/planning/real-apps.test.ts): tasks the
 * offline planner does today, kept green as it grows (the whole corpus, with its misses, is
 * `npm run bench:planner -- --corpus real`). Choose them here.
 */
export const REAL_APP_CI_SUBSET: string[] = [
  'todo-add-three',
  'todo-type-enter',
  'todo-complete-all',
  'todo-add-then-filter',
  'todo-delete-milk',
  'todo-edit-in-place',
  'todo-read-completed',
  'todo-read-counter',
  'json-change-city',
  'json-status-shipped',
  'tw-search-bothy',
  'tw-open-pancakes',
  'swagger-by-author',
  'mail-open-invoice',
  'mail-delete-marathon',
  'mail-recipient',
  'mail-clear-inbox',
  'swagger-book-two',
  'swagger-collapse-books',
  'json-switch-code',
  'json-collapse-all',
]

export const realAppTask = (id: string): RealAppTask => {
  const task = REAL_APP_CORPUS.find((entry) => entry.id === id)
  if (!task) throw new Error(`no real-app task ${id}`)
  return task
}
