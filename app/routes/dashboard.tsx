import { Coins, Download, Sparkles } from 'lucide-react'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/dashboard'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { requireMember } from '#app/lib/guards.server.ts'

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const plans = await context.services.plans.list()
  const plan = plans.find((candidate) => candidate.slug === user.profile.subscriptionPlan)
  return {
    name: user.profile.fullName ?? user.name,
    planName: plan?.name ?? 'Free',
    credits: user.profile.credits,
    extensionUrl: context.services.site.links.extension,
  }
}

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard | Aether' }, { name: 'robots', content: 'noindex' }]

export default function Dashboard() {
  const { name, planName, credits, extensionUrl } = useLoaderData<typeof loader>()
  return (
    <main className="space-y-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Automation History</h1>
        <p className="text-muted-foreground">{name ? `Welcome, ${name}.` : 'Welcome to your dashboard.'}</p>
      </header>
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
            <CardTitle>Quick Start</CardTitle>
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
            <CardTitle>Recent Activity</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-muted-foreground">No recent automations. Your runs will appear here.</p>
          </CardContent>
        </Card>
      </section>
    </main>
  )
}
