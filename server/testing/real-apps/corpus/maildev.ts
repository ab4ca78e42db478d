import { expectText, extracted, fieldMentions, readAll } from './checks.ts'
import type { RealAppTask, RunEvidence } from './types.ts'

// MailDev (AngularJS) holding five mails (a row's title says its recipient too, so rows are checked by what they mention) (../maildev.ts, MAILS), newest first. One build only; its
// backend is reset before each run, and tasks that change mail are judged by what it holds.

const inbox = readAll('.email-list li a .title', 'inbox')
const mailbox =
  (want: (subjects: string[], unread: number) => string | null) =>
  async ({ apps }: RunEvidence) => {
    const mails = await apps.backend.emails()
    return want(
      mails.map((mail) => mail.subject),
      mails.filter((mail) => !mail.read).length,
    )
  }

export const MAILDEV_TASKS: RealAppTask[] = [
  {
    id: 'mail-subjects',
    app: 'maildev',
    description: 'Copy the subject lines of all the emails in the inbox',
    model: [{ type: 'extract', element: 'Your March invoice', field: 'subjects', all: true }],
    check: { judge: extracted(['Your March invoice', 'Compiler meeting moved', 'Marathon training plan']) },
  },
  {
    id: 'mail-open-invoice',
    app: 'maildev',
    description: 'Open the March invoice email and read how much is due',
    model: [
      { type: 'click', element: 'Your March invoice', role: 'link' },
      { type: 'extract', element: 'Amount due', field: 'amount' },
    ],
    check: { judge: extracted(['64.20']) },
  },
  {
    id: 'mail-search-grace',
    app: 'maildev',
    description: 'Search the mails for Grace and open the one that comes up',
    model: [
      { type: 'type', element: 'Search', role: 'textbox', text: 'Grace' },
      { type: 'click', element: 'Compiler meeting moved', role: 'link' },
    ],
    check: { after: [expectText(null, 'room 4')], judge: () => null },
  },
  {
    id: 'mail-delete-marathon',
    app: 'maildev',
    description: 'Delete the email about the marathon training plan',
    model: [
      { type: 'click', element: 'Marathon training plan', role: 'link' },
      { type: 'click', element: 'Delete', role: 'button' },
    ],
    check: {
      judge: mailbox((subjects) =>
        subjects.includes('Marathon training plan') || subjects.length !== 4 ? `the mailbox holds ${subjects.join(', ')}` : null,
      ),
    },
  },
  {
    id: 'mail-read-all',
    app: 'maildev',
    description: 'Mark every email as read',
    model: [{ type: 'click', element: 'Mark all as read', role: 'button' }],
    check: { judge: mailbox((_subjects, unread) => (unread === 0 ? null : `${unread} mails are still unread`)) },
  },
  {
    id: 'mail-clear-inbox',
    app: 'maildev',
    description: 'Empty the inbox (delete all mail) and confirm',
    model: [{ type: 'click', element: 'Delete all', role: 'button' }],
    check: { judge: mailbox((subjects) => (subjects.length === 0 ? null : `${subjects.length} mails are left`)) },
  },
  {
    id: 'mail-library-date',
    app: 'maildev',
    description: 'Find the message from the library and get the date Wildwood has to be back',
    model: [
      { type: 'click', element: 'Wildwood is due back', role: 'link' },
      { type: 'extract', element: 'Please return Wildwood', field: 'due' },
    ],
    check: { judge: extracted(['9 April']) },
  },
  {
    id: 'mail-recipient',
    app: 'maildev',
    description: 'Open the email from Ada Lovelace and read who it was sent to',
    model: [
      { type: 'click', element: 'Engine notes for Tuesday', role: 'link' },
      { type: 'extract', element: 'team@example.com', field: 'to' },
    ],
    check: { judge: extracted(['team@example.com']) },
  },
  {
    id: 'mail-check-inbox',
    app: 'maildev',
    description: "Check that there's an email titled 'Compiler meeting moved' in the list",
    model: [{ type: 'assertText', text: 'Compiler meeting moved' }],
    check: { after: [inbox], judge: fieldMentions('inbox', ['Compiler meeting moved']) },
  },
]
