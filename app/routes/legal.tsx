import { ArrowRight } from 'lucide-react'
import { Link } from 'react-router'
import type { Route } from './+types/legal'
import { BackButton } from '#app/components/ui/back-button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '#app/components/ui/card.tsx'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { LEGAL_DOCUMENTS } from '#app/features/legal/legal-documents.ts'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import { readingPage } from '#app/lib/reading-page.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = await seo(
    {
      title: (site) => `Legal Information | ${site}`,
      description: 'Aether’s Terms of Service, Privacy Policy, Cookie Policy and Acceptable Use Policy in one place.',
      path: '/legal',
      keywords: ['legal information', 'terms of service', 'privacy policy', 'cookie policy', 'acceptable use policy', 'Aether'],
    },
    context,
  )
  return publicPageData({ meta }, request, context, 'static')
}

export const meta = loaderMeta

export const handle = readingPage

export const headers: Route.HeadersFunction = publicPageHeaders

export default function LegalIndexPage() {
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-16">
      <BackButton />
      <header className="mt-6 max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Legal Information</h1>
        <p className="mt-4 text-muted-foreground">
          The policies that govern how you use Aether and how we handle your data. We keep them short and plain, and we tell you when they
          change.
        </p>
      </header>
      <ul className="mt-10 grid gap-4 sm:grid-cols-2">
        {LEGAL_DOCUMENTS.map(({ title, description, path, icon: Icon }) => (
          <li key={path}>
            <Card className="flex h-full flex-col transition-colors hover:border-primary/60">
              <CardHeader>
                <span className="flex size-10 items-center justify-center rounded-md bg-accent text-accent-foreground">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h2 className="mt-3 text-lg leading-tight font-semibold tracking-tight">{title}</h2>
                <CardDescription>{description}</CardDescription>
              </CardHeader>
              <CardContent className="flex-1" />
              <CardFooter>
                <Link
                  to={path}
                  className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline"
                >
                  Read More<span className="sr-only"> about the {title}</span>
                  <ArrowRight className="size-4" aria-hidden="true" />
                </Link>
              </CardFooter>
            </Card>
          </li>
        ))}
      </ul>
      <p className="mt-10 text-sm text-muted-foreground">
        Have a question about any of these policies? Please{' '}
        <Link to="/contact" className="font-medium text-primary underline underline-offset-4 hover:no-underline">
          contact us
        </Link>
        .
      </p>
    </main>
  )
}
