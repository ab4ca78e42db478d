import { Eye, Reply, Trash2 } from 'lucide-react'
import { useFetcher } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '#app/components/ui/dialog.tsx'
import { PROJECT_TYPE_LABELS, type ProjectType } from '#common/inquiry-fields.ts'
import { DataTable, EmptyRow } from '#app/components/data-table.tsx'
import type { ActionResult } from '#app/lib/action-result.server.ts'
import { usePendingValue } from '../use-pending-value.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'

export interface InquiryRow {
  id: string
  name: string
  email: string
  projectType: ProjectType
  subject: string | null
  message: string
  processed: boolean
  date: string
  dateLabel: string
}

const HEADERS = ['Status', 'Name', 'Email', 'Project Type', 'Date', 'Actions']

/** The spec's reply: a mail link with subject 'RE: {project_type} Project Inquiry' and a greeting. */
function replyHref(inquiry: Pick<InquiryRow, 'email' | 'name' | 'projectType'>): string {
  const subject = `RE: ${inquiry.projectType} Project Inquiry`
  const body = `Hi ${inquiry.name},\n\nThank you for your inquiry about ${PROJECT_TYPE_LABELS[inquiry.projectType].toLowerCase()}. `
  return `mailto:${inquiry.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`
}

export function InquiriesTable({ inquiries }: { inquiries: InquiryRow[] }) {
  return (
    <DataTable caption="Service inquiries" headers={HEADERS}>
      {inquiries.length === 0 ? (
        <EmptyRow colSpan={HEADERS.length}>
          <p>No service inquiries found</p>
          <p className="mt-1 text-xs">Inquiries from the services page and messages from the contact form appear here.</p>
        </EmptyRow>
      ) : null}
      {inquiries.map((inquiry) => (
        <tr key={inquiry.id} className="border-b last:border-0">
          <td data-label="Status" className="px-3 py-2">
            <ProcessedToggle inquiry={inquiry} />
          </td>
          <td data-label="Name" className="px-3 py-2">
            {inquiry.name}
          </td>
          <td data-label="Email" className="px-3 py-2">
            {inquiry.email}
          </td>
          <td data-label="Project Type" className="px-3 py-2 whitespace-nowrap">
            {PROJECT_TYPE_LABELS[inquiry.projectType]}
          </td>
          <td data-label="Date" className="px-3 py-2 whitespace-nowrap">
            <time dateTime={inquiry.date}>{inquiry.dateLabel}</time>
          </td>
          <td data-label="Actions" className="px-3 py-2">
            <div className="flex items-center gap-1">
              <DetailsDialog inquiry={inquiry} />
              <Button asChild variant="ghost" size="icon" title="Reply by email">
                <a href={replyHref(inquiry)} aria-label={`Reply to ${inquiry.name} by email`}>
                  <Reply aria-hidden="true" />
                </a>
              </Button>
              <ConfirmAction
                label={<Trash2 aria-hidden="true" />}
                triggerProps={{
                  variant: 'ghost',
                  size: 'icon',
                  'aria-label': `Delete the inquiry from ${inquiry.name}`,
                  title: 'Delete',
                  className: 'text-destructive hover:text-destructive',
                }}
                title="Delete this inquiry?"
                description={`The inquiry from ${inquiry.name} is deleted for good.`}
                confirmLabel="Delete Inquiry"
                fields={{ intent: 'delete-inquiry', inquiryId: inquiry.id }}
                destructive
              />
            </div>
          </td>
        </tr>
      ))}
    </DataTable>
  )
}

/** The Status checkbox: ticked is Processed, clear is Pending. */
function ProcessedToggle({ inquiry }: { inquiry: InquiryRow }) {
  const fetcher = useFetcher<ActionResult>()
  useActionToast(fetcher.data)
  const [processed, setRequested] = usePendingValue(inquiry.processed, fetcher.state)
  return (
    <label className="flex items-center gap-2 whitespace-nowrap">
      <input
        type="checkbox"
        className="size-4 accent-primary"
        checked={processed}
        aria-label={`Inquiry from ${inquiry.name} processed`}
        onChange={(event) => {
          setRequested(event.target.checked)
          void fetcher.submit(
            { intent: 'set-processed', inquiryId: inquiry.id, processed: String(event.target.checked) },
            { method: 'post' },
          )
        }}
      />
      <span className={processed ? 'text-muted-foreground' : 'font-medium'}>{processed ? 'Processed' : 'Pending'}</span>
    </label>
  )
}

function DetailsDialog({ inquiry }: { inquiry: InquiryRow }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Details of the inquiry from ${inquiry.name}`} title="Details">
          <Eye aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Inquiry from {inquiry.name}</DialogTitle>
          <DialogDescription>
            {PROJECT_TYPE_LABELS[inquiry.projectType]} · {inquiry.dateLabel} · {inquiry.processed ? 'Processed' : 'Pending'}
          </DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Email</dt>
          <dd>{inquiry.email}</dd>
          {inquiry.subject ? (
            <>
              <dt className="text-muted-foreground">Subject</dt>
              <dd>{inquiry.subject}</dd>
            </>
          ) : null}
        </dl>
        <p className="max-h-80 overflow-y-auto rounded-md border p-3 text-sm whitespace-pre-wrap">{inquiry.message}</p>
        <Button asChild>
          <a href={replyHref(inquiry)}>
            <Reply aria-hidden="true" /> Reply by Email
          </a>
        </Button>
      </DialogContent>
    </Dialog>
  )
}
