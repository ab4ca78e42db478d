import { Mail } from 'lucide-react'
import { Link, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/about'
import { BackButton } from '#app/components/ui/back-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { ABOUT_INTRO, ABOUT_MISSION, aboutStory, VALUES } from '#app/features/company/about-content.ts'
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
      title: (site) => `About ${site} | Our Story, Mission and Founder`,
      description:
        'Aether is a one-person startup founded in 2022 that builds AI-powered browser and desktop automation. Read our story, mission and values.',
      path: '/about',
      keywords: ['about Aether', 'AI automation startup', 'founder', 'mission', 'company values'],
    },
    context,
  )
  return publicPageData({ meta }, request, context, 'static')
}

export const meta = loaderMeta

export const handle = readingPage

export const headers: Route.HeadersFunction = publicPageHeaders

export default function AboutPage() {
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  const { founder } = site
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-16">
      <BackButton />
      <section className="mt-8 text-center sm:mt-12">
        <p className="text-sm font-medium tracking-widest text-primary uppercase">Since {site.foundedYear}</p>
        <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
          About <span className="bg-gradient-to-r from-primary to-fuchsia-400 bg-clip-text text-transparent">{site.companyName}</span>
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-muted-foreground">{ABOUT_INTRO}</p>
      </section>

      <div className="mt-16 grid gap-12 md:grid-cols-2">
        <section aria-labelledby="our-story">
          <h2 id="our-story" className="text-2xl font-semibold tracking-tight">
            Our Story
          </h2>
          <div className="mt-4 space-y-4 leading-7 text-muted-foreground">
            {aboutStory(site.foundedYear, founder.name).map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        </section>
        <section aria-labelledby="our-mission">
          <h2 id="our-mission" className="text-2xl font-semibold tracking-tight">
            Our Mission
          </h2>
          <div className="mt-4 space-y-4 leading-7 text-muted-foreground">
            {ABOUT_MISSION.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        </section>
      </div>

      <section aria-labelledby="our-values" className="mt-16">
        <h2 id="our-values" className="text-2xl font-semibold tracking-tight">
          Our Values
        </h2>
        <IconCardGrid items={VALUES} />
      </section>

      <section aria-labelledby="meet-the-founder" className="mt-16">
        <h2 id="meet-the-founder" className="text-2xl font-semibold tracking-tight">
          Meet the Founder
        </h2>
        <Card className="mt-6">
          <div className="flex flex-col items-center gap-6 p-6 text-center sm:flex-row sm:items-start sm:text-left">
            <FounderAvatar name={founder.name} />
            <div>
              <h3 className="text-xl font-semibold tracking-tight">{founder.name}</h3>
              <p className="text-sm font-medium text-primary">{founder.role}</p>
              <p className="mt-3 leading-7 text-muted-foreground">{founder.bio}</p>
              <p className="mt-3 text-sm text-muted-foreground">
                Over {founder.yearsOfExperience} years of experience in automation and software engineering.
              </p>
            </div>
          </div>
        </Card>
      </section>

      <section aria-labelledby="work-with-us" className="mt-16 rounded-lg border bg-card p-8 text-center">
        <h2 id="work-with-us" className="text-2xl font-semibold tracking-tight">
          Have a question or an idea?
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
          Whether it is feedback, a partnership or a custom automation project, I read every message.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Button asChild size="lg">
            <Link to="/contact">
              <Mail aria-hidden="true" />
              Get in Touch
            </Link>
          </Button>
        </div>
      </section>
    </main>
  )
}
