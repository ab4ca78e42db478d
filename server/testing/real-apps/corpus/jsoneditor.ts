import { extracted, fieldHas, readAll } from './checks.ts'
import type { RealAppTask, RunEvidence } from './types.ts'

// JSONEditor 10 (plain JavaScript) in tree mode on order 1042 (../jsoneditor.ts, ORDER); moved to
// JSONEditor 9. A task that edits is judged by what Save sent.

type Saved = { customer?: { city?: string }; status?: string; express?: boolean; notes?: string }
const lastSaved =
  (want: (saved: Saved) => boolean, what: string) =>
  ({ apps }: RunEvidence) => {
    const saved = apps.backend.saved.at(-1) as Saved | undefined
    return saved && want(saved)
      ? null
      : `the saved order does not have ${what} (saved: ${saved ? JSON.stringify(saved).slice(0, 200) : 'nothing'})`
  }

export const JSONEDITOR_TASKS: RealAppTask[] = [
  {
    id: 'json-read-customer',
    app: 'jsoneditor',
    description: "Read the customer's name and email from the order",
    movedTo: '9',
    model: [
      { type: 'extract', element: 'Grace Hopper', field: 'name' },
      { type: 'extract', element: 'grace@example.com', field: 'email' },
    ],
    check: { judge: (evidence) => extracted(['Grace Hopper'])(evidence) ?? extracted(['grace@example.com'])(evidence) },
  },
  {
    id: 'json-change-city',
    app: 'jsoneditor',
    description: 'Change the city from Arlington to Leeds and press Save',
    movedTo: '9',
    model: [
      { type: 'type', element: 'Arlington', role: 'textbox', text: 'Leeds' },
      { type: 'click', element: 'Save', role: 'button' },
    ],
    check: { judge: lastSaved((saved) => saved.customer?.city === 'Leeds', 'city Leeds') },
  },
  {
    id: 'json-status-shipped',
    app: 'jsoneditor',
    description: "Set status to 'shipped', then save the order",
    movedTo: '9',
    model: [
      { type: 'type', element: 'packing', role: 'textbox', text: 'shipped' },
      { type: 'click', element: 'Save', role: 'button' },
    ],
    check: { judge: lastSaved((saved) => saved.status === 'shipped', 'status shipped') },
  },
  {
    id: 'json-search-socks',
    app: 'jsoneditor',
    description: 'Use the search box of the editor to find socks',
    movedTo: '9',
    model: [{ type: 'type', element: 'Search', role: 'textbox', text: 'socks' }],
    check: { after: [readAll('.jsoneditor-highlight', 'highlighted')], judge: fieldHas('highlighted', ['Wool Socks']) },
  },
  {
    id: 'json-item-names',
    app: 'jsoneditor',
    description: 'Get the names of all the items in the order',
    movedTo: '9',
    model: [{ type: 'extract', element: 'Trail Runner Shoes', field: 'items', all: true }],
    check: { judge: extracted(['Trail Runner Shoes', 'Wool Socks', 'Headlamp']) },
  },
  {
    id: 'json-switch-code',
    app: 'jsoneditor',
    description: 'Switch the editor to Code mode and copy the JSON text',
    movedTo: '9',
    model: [
      { type: 'click', element: 'Tree', role: 'button' },
      { type: 'click', element: 'Code', role: 'button' },
      { type: 'extract', element: 'order', field: 'json' },
    ],
    check: { after: [readAll('.jsoneditor-mode-code', 'code')], judge: extracted(['"customer"']) },
  },
  {
    id: 'json-notes-save',
    app: 'jsoneditor',
    description: 'Replace the notes with "Ring the bell twice" and hit Save; make sure it says Saved',
    movedTo: '9',
    model: [
      { type: 'type', element: 'Leave at the back door', role: 'textbox', text: 'Ring the bell twice' },
      { type: 'click', element: 'Save', role: 'button' },
      { type: 'assertText', text: 'Saved' },
    ],
    check: { judge: lastSaved((saved) => saved.notes === 'Ring the bell twice', 'the new notes') },
  },
  {
    id: 'json-collapse-all',
    app: 'jsoneditor',
    description: 'Collapse all fields of the tree and read the top-level order number',
    movedTo: '9',
    model: [
      { type: 'click', element: 'Collapse all', role: 'button' },
      { type: 'extract', element: '1042', field: 'order' },
    ],
    check: { judge: extracted(['1042']) },
  },
]
