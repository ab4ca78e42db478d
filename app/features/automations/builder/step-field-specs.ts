import {
  CONDITIONS,
  DIALOG_ACTIONS,
  ROW_FAILURE_ACTIONS,
  STEP_KEYS,
  STOP_OUTCOMES,
  TABLE_FORMATS,
  DATA_SOURCES,
  type StepType,
} from '#common/automation-steps.ts'
import { CONDITION_WORDS } from '#common/workflow-words.ts'

const TABLE_FORMAT_WORDS = { csv: 'CSV', json: 'JSON', xlsx: 'Excel workbook (.xlsx)' }

export interface FieldSpec {
  name: string
  label: string
  placeholder?: string
  /** Left empty, the field is left out of the step. */
  optional?: boolean
  multiline?: boolean
  type?: 'text' | 'url' | 'number'
  /** A choice of these values instead of free text. */
  options?: readonly string[]
  /** The words shown for each option (the value itself when absent). */
  optionLabels?: Readonly<Record<string, string>>
  /** Code, shown in a monospaced editor. */
  code?: boolean
  /** A true/false field shown as a choice of two: the words for true, then for false. */
  yesNo?: readonly [string, string]
}

const TARGET: FieldSpec = { name: 'target', label: 'Element' }

/** An if's or a repeat's condition: what it asks, and the parts that question needs. */
const CONDITION: FieldSpec[] = [
  { name: 'when', label: 'Condition', options: CONDITIONS, optionLabels: CONDITION_WORDS },
  { name: 'value', label: 'Value (for a value condition: {{row.column}}, {{value.name}}…)', optional: true },
  { name: 'text', label: 'Text or number', optional: true },
  { ...TARGET, label: 'Element (for an element or field condition; optional for a text)', optional: true },
]

// The fields of each step type, in the order the editor shows them (common/automation-steps.ts,
// common/verb-steps.ts). A wait has its own fields (step-card.tsx).
export const FIELDS: Record<Exclude<StepType, 'wait'>, FieldSpec[]> = {
  navigate: [{ name: 'url', label: 'URL', placeholder: 'https://example.com/login', type: 'url' }],
  click: [TARGET],
  type: [TARGET, { name: 'text', label: 'Text', multiline: true }],
  select: [TARGET, { name: 'value', label: 'Option (its value or the words it shows)' }],
  press: [
    { name: 'key', label: 'Key', options: STEP_KEYS },
    { ...TARGET, label: 'In the element (optional: the focused one when unset)', optional: true },
  ],
  extract: [
    TARGET,
    { name: 'field', label: 'Field name', placeholder: 'price' },
    { name: 'attribute', label: 'Attribute (optional)', placeholder: 'href', optional: true },
  ],
  screenshot: [{ name: 'name', label: 'Name (optional)', placeholder: 'After sign-in', optional: true }],
  assertText: [
    { name: 'text', label: 'Expected text', placeholder: 'Thank you for your order' },
    { name: 'absent', label: 'The text must be', yesNo: ['Not shown', 'Shown'], optional: true },
    { ...TARGET, label: 'In the element (optional: the whole page when unset)', optional: true },
  ],
  check: [TARGET, { name: 'checked', label: 'Leave it', yesNo: ['Ticked', 'Not ticked'] }],
  hover: [TARGET],
  doubleClick: [TARGET],
  clear: [TARGET],
  goBack: [],
  scroll: [
    { ...TARGET, label: 'Until this element shows (optional: one screen down when unset)', optional: true },
    { name: 'maxScrolls', label: 'At most this many screens (optional)', type: 'number', placeholder: '20', optional: true },
  ],
  dialog: [
    { name: 'action', label: 'Answer', options: DIALOG_ACTIONS },
    { name: 'text', label: 'Text to type into a prompt (optional)', optional: true },
  ],
  switchTab: [],
  assertChecked: [TARGET, { name: 'checked', label: 'It must be', yesNo: ['Ticked', 'Not ticked'] }],
  assertCount: [TARGET, { name: 'count', label: 'How many', type: 'number', placeholder: '10' }],
  if: CONDITION,
  else: [],
  end: [],
  repeat: [...CONDITION, { name: 'max', label: 'At most this many rounds', type: 'number', placeholder: '20' }],
  forEach: [
    { ...TARGET, label: 'Items (every element this finds is one round)' },
    { name: 'max', label: 'At most this many items', type: 'number', placeholder: '50' },
  ],
  forEachRow: [
    {
      name: 'onRowError',
      label: 'When a row fails',
      options: ROW_FAILURE_ACTIONS,
      optionLabels: { continue: 'Report it and go on with the next row', stop: 'Stop the run' },
    },
  ],
  next: [],
  stop: [
    { name: 'outcome', label: 'End the run as', options: STOP_OUTCOMES, optionLabels: { succeeded: 'Succeeded', failed: 'Failed' } },
    { name: 'message', label: 'Message (optional)', optional: true },
  ],
  download: [
    { ...TARGET, label: 'Element to click (optional: or give an address)', optional: true },
    { name: 'url', label: 'Address to download (when no element)', type: 'url', optional: true },
    { name: 'name', label: 'Keep it as (optional: the name the site gives)', optional: true },
  ],
  upload: [
    TARGET,
    { name: 'file', label: "File (its name in the run's or the automation's files, {{row.column}} allowed)", placeholder: 'report.csv' },
  ],
  saveTable: [
    { name: 'format', label: 'Format', options: TABLE_FORMATS, optionLabels: TABLE_FORMAT_WORDS },
    { name: 'name', label: 'File name', placeholder: 'prices.csv' },
  ],
  readData: [
    { name: 'path', label: 'File or folder (in a folder the runner may use)', placeholder: '/home/me/Orders/orders.csv' },
    {
      name: 'source',
      label: 'Read it as',
      options: DATA_SOURCES,
      optionLabels: { table: 'A table (CSV, or .xlsx): a row per line', listing: 'A folder: a row per file' },
    },
  ],
  writeData: [
    { name: 'path', label: 'File (in a folder the runner may use)', placeholder: '/home/me/Orders/results.csv' },
    { name: 'format', label: 'Format', options: TABLE_FORMATS, optionLabels: TABLE_FORMAT_WORDS },
    { name: 'replace', label: 'When the file exists', yesNo: ['Replace it', 'Fail the step'], optional: true },
  ],
  moveFile: [
    { name: 'from', label: 'File', placeholder: '/home/me/Inbox/{{row.name}}' },
    { name: 'to', label: 'Move it to', placeholder: '/home/me/Done/{{row.name}}' },
  ],
  copyFile: [
    { name: 'from', label: 'File', placeholder: '/home/me/Reports/report.pdf' },
    { name: 'to', label: 'Copy it to', placeholder: '/home/me/Archive/report.pdf' },
  ],
  openFile: [{ name: 'path', label: 'File or folder', placeholder: '/home/me/Reports/report.pdf' }],
  askPerson: [{ name: 'message', label: 'What the person should do', placeholder: 'Type the code the bank sent by SMS', multiline: true }],
  script: [
    { name: 'code', label: 'JavaScript (the body of an async function of row, values, inputs)', multiline: true, code: true },
    { name: 'storeAs', label: 'Keep the result as {{value.…}} (optional)', placeholder: 'total', optional: true },
    { name: 'extract', label: 'Also add it to the extracted data', yesNo: ['Yes', 'No'], optional: true },
  ],
}
