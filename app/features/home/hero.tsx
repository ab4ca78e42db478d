import { ArrowRight, Play } from 'lucide-react'
import { lazy, Suspense, useRef, useState } from 'react'
import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

// The walkthrough (and the dialog library) loads only when someone asks for it: it is not part
// of the JavaScript every visitor of '/' downloads. Pointing at the button starts the download.
const loadDemo = () => import('./demo-dialog.tsx')
const DemoDialog = lazy(loadDemo)

export function Hero({ startHref }: { startHref: string }) {
  const [open, setOpen] = useState(false)
  const [requested, setRequested] = useState(false)
  const demoButton = useRef<HTMLButtonElement>(null)
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
            ref={demoButton}
            type="button"
            variant="outline"
            size="lg"
            aria-haspopup="dialog"
            onPointerEnter={() => void loadDemo()}
            onFocus={() => void loadDemo()}
            onClick={() => {
              setRequested(true)
              setOpen(true)
            }}
          >
            <Play aria-hidden="true" /> Watch Demo
          </Button>
        </div>
      </div>
      {requested ? (
        <Suspense fallback={null}>
          <DemoDialog open={open} onOpenChange={setOpen} startHref={startHref} returnFocusTo={demoButton} />
        </Suspense>
      ) : null}
    </section>
  )
}
