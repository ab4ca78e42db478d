import type * as React from 'react'
import { Link } from 'react-router'
import { BackButton } from '#app/components/ui/back-button.tsx'
import { formatPolicyDate } from './policy-date.ts'

export interface LegalSection {
  /** Anchor of the section, e.g. 'refund-policy' for /terms#refund-policy. */
  id: string
  title: string
  content: React.ReactNode
}

export interface LegalPageProps {
  title: string
  summary: string
  /** ISO date from the site configuration's policyDates. */
  lastUpdated: string
  sections: LegalSection[]
  related: { to: string; label: string }[]
}

/** Shared layout of the four policy pages: title, 'Last updated', contents, sections, related policies. */
export function LegalPage({ title, summary, lastUpdated, sections, related }: LegalPageProps) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-16">
      <BackButton />
      <header className="mt-6 border-b pb-8">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-3 text-sm text-muted-foreground">
          Last updated: <time dateTime={lastUpdated}>{formatPolicyDate(lastUpdated)}</time>
        </p>
        <p className="mt-4 text-muted-foreground">{summary}</p>
      </header>
      <nav aria-label="On this page" className="mt-8 rounded-lg border bg-card p-5">
        <p className="text-sm font-semibold">On this page</p>
        <ol className="mt-3 grid list-decimal gap-x-8 gap-y-1.5 pl-5 text-sm sm:grid-cols-2">
          {sections.map((section) => (
            <li key={section.id} className="text-muted-foreground">
              <a href={`#${section.id}`} className="text-muted-foreground underline-offset-4 hover:text-foreground hover:underline">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="mt-4">
        {sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="scroll-mt-24 pt-8">
            <h2 id={`${section.id}-heading`} className="text-xl font-semibold tracking-tight">
              {section.title}
            </h2>
            <div className="mt-3 space-y-3 leading-7 text-muted-foreground [&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:no-underline [&_h3]:pt-2 [&_h3]:font-semibold [&_h3]:text-foreground [&_li]:mt-1 [&_strong]:font-semibold [&_strong]:text-foreground [&_ul]:list-disc [&_ul]:pl-6">
              {section.content}
            </div>
          </section>
        ))}
      </div>
      <aside aria-label="Related policies" className="mt-12 border-t pt-8">
        <p className="text-sm font-semibold">Related policies</p>
        <ul className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {related.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="font-medium text-primary underline-offset-4 hover:underline">
                {link.label}
              </Link>
            </li>
          ))}
          <li>
            <Link to="/legal" className="font-medium text-primary underline-offset-4 hover:underline">
              All legal information
            </Link>
          </li>
        </ul>
      </aside>
    </main>
  )
}
