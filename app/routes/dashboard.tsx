import { format } from 'date-fns'
import { Coins, Download, Sparkles } from 'lucide-react'
import { useEffect } from 'react'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/dashboard'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { CreditActivity } from '#app/features/dashboard/credit-activity.tsx'
import { requireMember } from '#app/lib/guards.server.ts'
import { toast } from '#app/lib/toast.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

const PROFILE_ISSUE = ['Profile loading issue', 'Using default profile settings. Some features may be limited.'] as const

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const [plans, ledger] = await Promise.all([
    context.services.plans.list(),
    user.profileUnavailable ? Promise.resolve([]) : context.services.credits.recent(user.id, 5),
  ])
  const plan = plans.find((candidate) => candidate.slug === user.profile.subscriptionPlan)
  return {
    name: user.profile.fullName ?? user.name,
    planName: plan?.name ?? 'Free',
    credits: user.profile.credits,
    profileIssue: Boolean(user.profileUnavailable),
    extensionUrl: context.services.site.links.extension,
    ledger: ledger.map((entry) => ({
      id: entry.id,
      delta: entry.delta,
      balanceAfter: entry.balanceAfter,
      reason: entry.reason,
      reference: entry.reference,
      date: entry.createdAt.toISOString(),
      dateLabel: format(entry.createdAt, 'MMM d, yyyy'),
    })),
  }
}

export const meta = privatePageMeta('Dashboard')

export default function Dashboard() {
  const { name, planName, credits, profileIssue, extensionUrl, ledger } = useLoaderData<typeof loader>()
  useEffect(() => {
    if (profileIssue) toast.error(PROFILE_ISSUE[0], { description: PROFILE_ISSUE[1] })
  }, [profileIssue])
  return (
    <main className="space-y-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Automation History</h1>
        <p className="text-muted-foreground">{name ? `Welcome, ${name}.` : 'Welcome to your dashboard.'}</p>
      </header>
      {profileIssue ? (
        <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm">
          <strong>{PROFILE_ISSUE[0]}:</strong> {PROFILE_ISSUE[1]}
        </p>
      ) : null}
      <section aria-label="Account summary" className="grid gap-4 sm:grid-cols-2">
        <Card>
          <CardHeader>
            <CardDescription>Current plan</CardDescription>
            <CardTitle className="flex items-center gap-2 text-2xl">
              <Sparkles className="size-5 text-primary" aria-hidden="true" /> {planName}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <Link to="/billing" className="text-sm text-primary hover:underline">
              Manage plan
            </Link>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>Credits remaining</CardDescription>
            <CardTitle className="flex items-center gap-2 text-2xl">
              <Coins className="size-5 text-primary" aria-hidden="true" /> {credits}
            </CardTitle>
          </CardHeader>
        </Card>
      </section>
      <section className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle level={2}>Quick Start</CardTitle>
            <CardDescription>Record a task in your browser with the Aether extension, then run it from here.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild>
              <a href={extensionUrl} target="_blank" rel="noopener noreferrer">
                <Download /> Create New Automation
              </a>
            </Button>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle level={2}>Recent Activity</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-muted-foreground">No recent automations. Your runs will appear here.</p>
          </CardContent>
        </Card>
      </section>
      <CreditActivity entries={ledger} />
    </main>
  )
}
