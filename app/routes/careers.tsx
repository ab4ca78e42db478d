import { Check, Mail, Quote, Sprout } from 'lucide-react'
import { Link, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/careers'
import { BackButton } from '#app/components/ui/back-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader } from '#app/components/ui/card.tsx'
import { BENEFITS, CULTURE, FOUNDER_VISION, teamStatus } from '#app/features/company/careers-content.ts'
import { FounderAvatar } from '#app/features/company/founder-avatar.tsx'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { defaultSiteConfig } from '#common/site.ts'
import { IconCardGrid } from '#app/features/company/icon-card-grid.tsx'
import { readingPage } from '#app/lib/reading-page.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = await seo(
    {
      title: (site) => `Careers at ${site} | Company Culture and Benefits`,
      description:
        'Aether is an early-stage, remote-first startup. Learn about our culture, the benefits we plan to offer and how to get in touch.',
      path: '/careers',
      keywords: ['Aether careers', 'remote-first', 'startup jobs', 'company culture', 'benefits'],
    },
    context,
  )
  return publicPageData({ meta }, request, context, 'static')
}

export const meta = loaderMeta

export const handle = readingPage

export const headers: Route.HeadersFunction = publicPageHeaders

export default function CareersPage() {
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  const { founder } = site
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-16">
      <BackButton />
      <section className="mt-8 text-center sm:mt-12">
        <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">Careers at {site.companyName}</h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-muted-foreground">
          We are building tools that give people their time back, and a company that does the same for the people who build it.
        </p>
      </section>

      <section aria-labelledby="team-status" className="mt-12 rounded-lg border border-primary/40 bg-accent p-6 text-accent-foreground">
        <div className="flex gap-4">
          <Sprout className="mt-1 size-6 shrink-0" aria-hidden="true" />
          <div>
            <h2 id="team-status" className="text-xl font-semibold tracking-tight">
              Current Team Status
            </h2>
            <p className="mt-2 leading-7">{teamStatus(founder.name)}</p>
          </div>
        </div>
      </section>

      <section aria-labelledby="company-culture" className="mt-16">
        <h2 id="company-culture" className="text-2xl font-semibold tracking-tight">
          Company Culture
        </h2>
        <IconCardGrid items={CULTURE} />
      </section>

      <section aria-labelledby="future-benefits" className="mt-16">
        <h2 id="future-benefits" className="text-2xl font-semibold tracking-tight">
          Future Benefits
        </h2>
        <p className="mt-2 text-muted-foreground">What we plan to offer as soon as the team grows.</p>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {BENEFITS.map(({ icon: Icon, title, items }) => (
            <li key={title}>
              <Card className="h-full">
                <CardHeader className="flex-row items-center gap-3">
                  <Icon className="size-5 text-primary" aria-hidden="true" />
                  <h3 className="text-lg leading-tight font-semibold tracking-tight">{title}</h3>
                </CardHeader>
                <CardContent>
                  <ul className="space-y-2 text-sm text-muted-foreground">
                    {items.map((item) => (
                      <li key={item} className="flex gap-2">
                        <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                        <span>{item}</span>
                      </li>
                    ))}
                  </ul>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="founder-vision" className="mt-16">
        <h2 id="founder-vision" className="sr-only">
          A word from the founder
        </h2>
        <figure className="rounded-lg border bg-card p-8">
          <Quote className="size-8 text-primary" aria-hidden="true" />
          <blockquote className="mt-4 text-lg leading-8 sm:text-xl">“{FOUNDER_VISION}”</blockquote>
          <figcaption className="mt-6 flex items-center gap-3">
            <FounderAvatar name={founder.name} className="size-12" />
            <span>
              <span className="block font-semibold">{founder.name}</span>
              <span className="block text-sm text-muted-foreground">{founder.role}</span>
            </span>
          </figcaption>
        </figure>
      </section>

      <section aria-labelledby="get-in-touch" className="mt-16 text-center">
        <h2 id="get-in-touch" className="text-2xl font-semibold tracking-tight">
          Interested in joining later?
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
          Tell us a little about yourself and what you would love to work on. We keep every message for when we start hiring.
        </p>
        <Button asChild size="lg" className="mt-6">
          <Link to="/contact">
            <Mail aria-hidden="true" />
            Get in Touch
          </Link>
        </Button>
      </section>
    </main>
  )
}
