import { data, Link, redirect, useLoaderData } from 'react-router'
import type { Route } from './+types/billing-invoice'
import { attempt } from '#app/lib/attempt.server.ts'
import { requireMember, requireWorkspaceOwner } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

// A payment's invoice (issue 33): the payment must be the workspace's (anyone else's is 404), then
// the member goes on to the provider's short-lived link (Paddle's PDF, or the sandbox's own page).
// The link is asked for at each visit and never kept.

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const workspace = requireWorkspaceOwner(user).workspace.id
  const outcome = await attempt(() => context.services.billing.invoiceUrl(workspace, params.paymentId))
  if (outcome.ok) return redirect(outcome.value, { headers: { 'Cache-Control': 'private, no-store' } })
  if (outcome.error.status === 404) throw data(outcome.error.message, { status: 404 })
  // The provider refused or is out of reach: say so on the page, with the way back.
  return data({ error: outcome.error.message }, { status: outcome.error.status })
}

export const meta = privatePageMeta('Invoice')

export default function InvoiceUnavailablePage() {
  const { error } = useLoaderData<typeof loader>()
  return (
    <main className="max-w-lg space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Invoice</h1>
      <p role="alert" className="rounded-md border border-destructive/50 p-4 text-sm">
        {error}
      </p>
      <Link to="/billing/history" className="text-sm text-primary hover:underline">
        Back to Billing History
      </Link>
    </main>
  )
}
