import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

export function CtaBanner({ startHref }: { startHref: string }) {
  return (
    <section aria-labelledby="cta-heading" className="px-4 pb-24 sm:px-6">
      <div className="mx-auto max-w-6xl rounded-2xl border border-primary/30 bg-linear-to-br from-primary/15 via-card to-card px-6 py-14 text-center">
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
          Start Automating Now
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-muted-foreground">
          Hand your repetitive work to Aether. Start on the Free plan today; paid plans come with a 14-day free trial and a 30-day
          money-back guarantee.
        </p>
        <Button asChild size="lg" className="mt-8">
          <Link to={startHref}>Get Started for Free</Link>
        </Button>
      </div>
    </section>
  )
}
