import { ArrowRight, Play } from 'lucide-react'
import { useRef } from 'react'
import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { browserRunsCommands, DEMO_DIALOG_ID, DemoDialog } from './demo-dialog.tsx'

export function Hero({ startHref }: { startHref: string }) {
  const demo = useRef<HTMLDialogElement>(null)
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-40 mx-auto h-96 max-w-4xl rounded-full bg-primary/20 blur-3xl"
      />
      <div className="relative mx-auto max-w-6xl px-4 pt-20 pb-16 text-center sm:px-6 sm:pt-28">
        <p className="mx-auto mb-6 w-fit rounded-full border bg-card px-3 py-1 text-xs font-medium text-muted-foreground">
          AI-powered browser and desktop automation
        </p>
        <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-6xl">
          Automate everything, from web browsing to{' '}
          <span className="bg-linear-to-r from-primary to-fuchsia-400 bg-clip-text text-transparent">business workflows</span>
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
          Record a task once and let AI run it for you. Browser extensions, desktop apps and smart workflows for data entry, form submission
          and site navigation, managed from one dashboard.
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <Button asChild size="lg">
            <Link to={startHref}>
              Start Automating Now <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button
            type="button"
            variant="outline"
            size="lg"
            aria-haspopup="dialog"
            commandfor={DEMO_DIALOG_ID}
            command="show-modal"
            onClick={() => {
              // Where the browser does not run the command itself (the page then hydrates for this button).
              if (!browserRunsCommands()) demo.current?.showModal()
            }}
          >
            <Play aria-hidden="true" /> Watch Demo
          </Button>
        </div>
      </div>
      <DemoDialog startHref={startHref} dialog={demo} />
    </section>
  )
}
