import { FlaskConical, Printer } from 'lucide-react'
import { data, Link, useLoaderData, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/billing-portal-invoice'
import { MAIN_CONTENT_ID } from '#app/components/layout/skip-link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { formatDate, formatMoney } from '#app/features/billing/billing-view.server.ts'
import { requireMember, requireWorkspaceOwner } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { defaultSiteConfig } from '#common/site.ts'

// The local payment sandbox's invoice of one payment (BILLING_SANDBOX only; issue 33): what
// Paddle's invoice PDF is for a real payment, as a printable page. Only the workspace's owners
// get it, and only for its own completed payments of more than $0.00; anything else is 404.

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const { billing, plans } = context.services
  if (billing.checkout?.kind !== 'sandbox') throw data('The payment sandbox is off.', { status: 404 })
  const workspace = requireWorkspaceOwner(user).workspace.id
  const payment = await billing.invoicedPayment(workspace, params.transactionId)
  if (!payment) throw data('There is no such invoice.', { status: 404 })
  const plan = (await plans.list()).find((candidate) => candidate.slug === payment.planSlug)
  const money = (amount: number) => formatMoney(amount, payment.currency)
  return {
    number: payment.providerTransactionId,
    dateLabel: formatDate(payment.createdAt),
    billedTo: user.email,
    description: plan ? `Aether ${plan.name} plan, monthly` : 'Aether subscription',
    totalLabel: money(Math.round((payment.amount + payment.creditApplied) * 100) / 100),
    creditLabel: payment.creditApplied > 0 ? money(payment.creditApplied) : null,
    paidLabel: money(payment.amount),
  }
}

export const meta = privatePageMeta('Invoice')

export default function SandboxInvoicePage() {
  const invoice = useLoaderData<typeof loader>()
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto max-w-2xl space-y-8 px-4 py-10 outline-none">
      <div className="flex flex-wrap items-center justify-between gap-4 print:hidden">
        <Link to="/billing/history" className="text-sm text-primary hover:underline">
          Back to Billing History
        </Link>
        <Button variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden="true" /> Print
        </Button>
      </div>
      <p className="flex items-start gap-2 rounded-md border border-dashed p-3 text-sm text-muted-foreground">
        <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Payment sandbox: a test invoice. No real payment was taken.
      </p>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Invoice</h1>
          <p className="font-mono text-sm text-muted-foreground">{invoice.number}</p>
        </div>
        <div className="text-right text-sm">
          <p className="font-semibold">{site.companyName}</p>
          <p className="text-muted-foreground">{site.supportEmail}</p>
        </div>
      </header>
      <dl className="grid gap-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">Billed to</dt>
          <dd className="font-medium break-all">{invoice.billedTo}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Date</dt>
          <dd className="font-medium">{invoice.dateLabel}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Status</dt>
          <dd className="font-medium">Paid</dd>
        </div>
      </dl>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">What was charged</caption>
        <thead className="border-b text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 font-medium">
              Description
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-b">
            <td className="py-3">{invoice.description}</td>
            <td className="py-3 text-right tabular-nums">{invoice.totalLabel}</td>
          </tr>
          {invoice.creditLabel ? (
            <tr className="border-b">
              <td className="py-3">Paid from your credit balance</td>
              <td className="py-3 text-right tabular-nums">-{invoice.creditLabel}</td>
            </tr>
          ) : null}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" className="py-3 font-semibold">
              Total paid
            </th>
            <td className="py-3 text-right font-semibold tabular-nums">{invoice.paidLabel}</td>
          </tr>
        </tfoot>
      </table>
    </main>
  )
}
