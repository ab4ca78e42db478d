import { data, Link, useLoaderData } from 'react-router'
import type { Route } from './+types/billing-history'
import { Pagination } from '#app/components/pagination.tsx'
import { Card, CardContent } from '#app/components/ui/card.tsx'
import { invoicesFor, paymentRows } from '#app/features/billing/billing-view.server.ts'
import { PaymentTable } from '#app/features/billing/payment-table.tsx'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { DEFAULT_PAGE_SIZE } from '#common/pagination.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const requested = Number(new URL(request.url).searchParams.get('page') ?? '1')
  const page = Number.isInteger(requested) && requested >= 1 && requested <= 100_000 ? requested : 1
  const caller = pageCaller(user)
  const [result, plans] = await Promise.all([
    context.services.billing.payments(caller.workspace.id, { page, limit: DEFAULT_PAGE_SIZE }),
    context.services.plans.list(),
  ])
  if (page > 1 && result.items.length === 0) throw data('No such page', { status: 404 })
  return {
    payments: paymentRows(result.items, plans, invoicesFor(context.services.billing, caller)),
    page,
    pageCount: Math.max(1, Math.ceil(result.total / DEFAULT_PAGE_SIZE)),
    total: result.total,
  }
}

export const meta = privatePageMeta('Billing History')

export default function BillingHistoryPage() {
  const { payments, page, pageCount, total } = useLoaderData<typeof loader>()
  return (
    <main className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Billing History</h1>
        <Link to="/billing" className="text-sm text-primary hover:underline">
          Back to Billing
        </Link>
      </div>
      <Card>
        <CardContent className="pt-6">
          {payments.length ? (
            <PaymentTable payments={payments} caption={`All payments (${total}), newest first`} />
          ) : (
            <p className="text-sm text-muted-foreground">No payments yet.</p>
          )}
        </CardContent>
      </Card>
      <Pagination page={page} pageCount={pageCount} href={(n) => `/billing/history?page=${n}`} label="Billing history pages" />
    </main>
  )
}
