import { ExternalLink, Star } from 'lucide-react'
import type { SiteConfig } from '#common/site.ts'

export function AboutMeCard({ site }: { site: SiteConfig }) {
  const { founder, services, links } = site
  return (
    <section aria-labelledby="about-me-heading" className="rounded-lg border bg-card p-6 text-card-foreground">
      <h2 id="about-me-heading" className="text-2xl font-bold tracking-tight">
        About Me
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {founder.name}, {founder.role}
      </p>
      <p className="mt-4 text-muted-foreground">
        I have spent over {founder.yearsOfExperience} years building scrapers, integrations and automation tools, and have delivered
        projects for over {services.satisfiedClients} satisfied clients.
      </p>
      <dl className="mt-6 grid grid-cols-2 gap-4">
        <div className="rounded-md border p-4">
          <dt className="text-sm text-muted-foreground">Satisfied clients</dt>
          <dd className="mt-1 text-2xl font-bold">{services.satisfiedClients}+</dd>
        </div>
        <div className="rounded-md border p-4">
          <dt className="text-sm text-muted-foreground">Freelancer rating</dt>
          <dd className="mt-1 flex items-center gap-1 text-2xl font-bold">
            <Star className="size-5 fill-amber-400 text-amber-400" aria-hidden="true" />
            {services.rating}/5
          </dd>
          <dd className="text-xs text-muted-foreground">from {services.reviewCount} reviews</dd>
        </div>
      </dl>
      <div className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        <a
          href={links.freelancerProfile}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
        >
          Freelancer profile <ExternalLink className="size-3.5" aria-hidden="true" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
        <a
          href={links.scraperStore}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
        >
          Scraper store <ExternalLink className="size-3.5" aria-hidden="true" />
          <span className="sr-only">(opens in a new tab)</span>
        </a>
      </div>
    </section>
  )
}
