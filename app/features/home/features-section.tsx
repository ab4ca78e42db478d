import { SectionHeading } from './section-heading.tsx'

const FEATURES = [
  ['Browser Automation', 'Fill forms, click through sites, collect data and download files in Chrome, exactly as you would.'],
  ['AI Task Handler', 'Describe a task in plain words; AI plans the steps and recovers when a page behaves differently.'],
  ['Desktop App Integration', 'Reach beyond the browser: move files and drive desktop apps in the same workflow.'],
  ['Custom Scripting Support', 'Add your own JavaScript steps where a workflow needs logic of its own.'],
  ['Cloud Sync & Session Restore', 'Automations and sessions sync across your devices and pick up where they stopped.'],
  ['User-Friendly Dashboard', 'See every automation, run and credit in one place, and change them in a click.'],
] as const

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-heading" className="scroll-mt-20 border-t bg-muted/30 py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="features-heading"
          eyebrow="Features"
          title="Everything you need to automate your work"
          intro="From a single click to a whole business process, Aether handles the repetitive part."
        />
        <ol className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(([title, text], index) => (
            <li key={title} className="rounded-lg border bg-card p-6 text-card-foreground">
              <span className="font-mono text-sm font-semibold text-primary" aria-hidden="true">
                {String(index + 1).padStart(2, '0')}
              </span>
              <h3 className="mt-3 text-lg leading-tight font-semibold">{title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  )
}
