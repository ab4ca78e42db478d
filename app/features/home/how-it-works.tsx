import { ArrowRight } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { SectionHeading } from './section-heading.tsx'
import { STEPS } from './steps.ts'

export function HowItWorks({ startHref }: { startHref: string }) {
  return (
    <section id="how-it-works" aria-labelledby="how-heading" className="scroll-mt-20 py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="how-heading"
          eyebrow="How It Works"
          title="From a task you do by hand to one that runs itself"
          intro="Four steps, a few minutes, no code required."
        />
        <ol className="mt-12 grid gap-6 md:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="relative">
              <span
                className="flex size-10 items-center justify-center rounded-full border border-primary/40 bg-accent font-semibold text-accent-foreground"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 text-lg leading-tight font-semibold">{step.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{step.text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-12 text-center">
          <Button asChild size="lg">
            <Link to={startHref}>
              Start Your First Automation <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </div>
    </section>
  )
}
