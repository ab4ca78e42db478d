import { ArrowRight, Bot, LayoutDashboard, MonitorSmartphone } from 'lucide-react'
import { Link, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/home'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { seo, seoSite } from '#app/lib/seo.ts'
import type { loader as rootLoader } from '#app/root.tsx'

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: 'Aether — AI-powered browser and desktop automation',
      description: 'Automate repetitive tasks with AI-powered tools that save time: browser extensions, desktop apps and smart workflows.',
      path: '/',
    },
    seoSite(matches),
  )

const CARDS = [
  { icon: MonitorSmartphone, title: 'Chrome Extensions & Desktop Apps', text: 'Automate work in your browser and on your desktop.' },
  { icon: Bot, title: 'Smart Workflows', text: 'Data entry, form submission and site navigation, handled by AI.' },
  { icon: LayoutDashboard, title: 'Full SaaS Control', text: 'One dashboard to manage every task and run.' },
]

export default function Home() {
  const root = useRouteLoaderData<typeof rootLoader>('root')
  const startHref = root?.user ? '/dashboard' : '/auth?mode=signup'
  return (
    <main>
      <section className="mx-auto max-w-6xl px-4 pb-16 pt-20 text-center sm:px-6 sm:pt-28">
        <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight sm:text-6xl">
          Automate everything, from web browsing to{' '}
          <span className="bg-gradient-to-r from-primary to-fuchsia-400 bg-clip-text text-transparent">business workflows</span>
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
          Browser extensions and desktop apps with smart AI workflows that save you hours every week.
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <Button asChild size="lg">
            <Link to={startHref}>
              Start Automating Now <ArrowRight />
            </Link>
          </Button>
        </div>
      </section>
      <section aria-label="Highlights" className="mx-auto grid max-w-6xl gap-4 px-4 pb-24 sm:px-6 md:grid-cols-3">
        {CARDS.map(({ icon: Icon, title, text }) => (
          <Card key={title}>
            <CardHeader>
              <Icon className="size-6 text-primary" aria-hidden="true" />
              <CardTitle>{title}</CardTitle>
              <CardDescription>{text}</CardDescription>
            </CardHeader>
          </Card>
        ))}
      </section>
    </main>
  )
}
