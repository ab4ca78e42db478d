import { ArrowRight } from 'lucide-react'
import { Button } from '#app/components/ui/button.tsx'

export function ServicesHero() {
  return (
    <section className="mx-auto max-w-6xl px-4 pt-20 pb-12 text-center sm:px-6 sm:pt-24">
      <p className="text-sm font-semibold tracking-wider text-primary uppercase">Consulting</p>
      <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">Custom Automation Services</h1>
      <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
        Scrapers, workflows and tools built for your business by an automation specialist, from a one-off data job to a process that runs
        every day.
      </p>
      <Button asChild size="lg" className="mt-8">
        <a href="#inquiry">
          Discuss Your Project <ArrowRight aria-hidden="true" />
        </a>
      </Button>
    </section>
  )
}
