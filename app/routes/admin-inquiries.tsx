import { format } from 'date-fns'
import { useEffect } from 'react'
import { useActionData, useLoaderData, useRevalidator } from 'react-router'
import type { Route } from './+types/admin-inquiries'
import { Pagination } from '#app/components/pagination.tsx'
import { actionResult } from '#app/lib/action-result.server.ts'
import { InquiriesTable } from '#app/features/admin/inquiries/inquiries-table.tsx'
import { ListToolbar } from '#app/features/admin/list-toolbar.tsx'
import { readListQuery } from '#app/features/admin/list-query.server.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { readForPage } from '#app/lib/read-for-page.server.ts'
import { requireAdminAction, requireAdminMember } from '#app/lib/guards.server.ts'
import { toast } from '#app/lib/toast.ts'
import { ValidationError } from '#common/errors.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'
import { revalidateLatest } from '#app/lib/revalidate.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdminMember(context)
  const query = readListQuery(request)
  const loaded = await readForPage(
    context,
    () => context.services.inquiries.list({ page: query.page, limit: DEFAULT_PAGE_SIZE, search: query.search }),
    'The inquiries could not be loaded. Please try again.',
  )
  const result = loaded.ok ? loaded.value : { items: [], total: 0 }
  return {
    error: query.error ?? (loaded.ok ? null : loaded.message),
    search: query.search,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(result.total / DEFAULT_PAGE_SIZE)),
    total: result.total,
    inquiries: result.items.map((inquiry) => ({
      id: inquiry.id,
      name: inquiry.name,
      email: inquiry.email,
      projectType: inquiry.projectType,
      subject: inquiry.subject,
      message: inquiry.message,
      processed: inquiry.processed,
      date: inquiry.createdAt.toISOString(),
      dateLabel: format(inquiry.createdAt, 'MMM d, yyyy'),
    })),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireAdminAction(context)
  const form = await request.formData()
  const intent = String(form.get('intent'))
  const id = String(form.get('inquiryId') ?? '').slice(0, 100)
  if (intent === 'set-processed') {
    const processed = form.get('processed') === 'true'
    return actionResult(() => context.services.inquiries.setProcessed(actor, id, processed), {
      intent: intent,
      success: { title: processed ? 'Marked as processed' : 'Marked as unprocessed' },
      error: 'Error updating inquiry',
    })
  }
  if (intent === 'delete-inquiry') {
    return actionResult(() => context.services.inquiries.remove(actor, id), {
      intent: intent,
      success: { title: 'Inquiry deleted' },
      error: 'Error deleting inquiry',
    })
  }
  return actionResult(() => Promise.reject(new ValidationError('Unknown action')), {
    intent: intent,
    success: { title: '' },
    error: 'Error updating inquiry',
  })
}

export default function AdminInquiriesTab() {
  const { inquiries, page, pageCount, total, search, error } = useLoaderData<typeof loader>()
  useActionToast(useActionData<typeof action>())
  useEffect(() => {
    if (error) toast.error('Error fetching inquiries', { description: error })
  }, [error])
  useLiveInquiries()
  return (
    <section aria-label="Service Inquiries" className="space-y-4">
      <ListToolbar placeholder="Search inquiries..." search={search} label="inquiries" />
      <p className="text-sm text-muted-foreground">{total === 1 ? '1 inquiry' : `${total} inquiries`}</p>
      <InquiriesTable inquiries={inquiries} />
      <Pagination
        page={page}
        pageCount={pageCount}
        href={(n) => `/admin/inquiries?${new URLSearchParams({ ...(search ? { search } : {}), page: String(n) })}`}
        label="Inquiry pages"
      />
    </section>
  )
}

/** New inquiries appear without a reload: the server's event stream triggers a fresh load. */
function useLiveInquiries() {
  const revalidator = useRevalidator()
  useEffect(() => {
    const source = new EventSource('/api/events/inquiries')
    // Whatever arrived between this page's load and the stream's start is fetched once connected.
    source.addEventListener('ready', () => revalidateLatest(revalidator.revalidate))
    source.addEventListener('inquiry', (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as { type: string; name?: string }
      if (event.type === 'created') toast.info('New inquiry', { description: event.name ? `From ${event.name}` : undefined })
      revalidateLatest(revalidator.revalidate)
    })
    return () => source.close()
    // One stream per visit of the tab; revalidate is stable enough for this purpose.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
}
