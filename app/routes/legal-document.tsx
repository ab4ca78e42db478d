import { data, useLoaderData, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/legal-document'
import { LEGAL_CONTENT } from '#app/features/legal/legal-document-content.ts'
import { LEGAL_DOCUMENTS } from '#app/features/legal/legal-documents.ts'
import { LegalPage } from '#app/features/legal/legal-page.tsx'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { defaultSiteConfig } from '#common/site.ts'
import { readingPage } from '#app/lib/reading-page.ts'

// /terms, /privacy, /cookies and /acceptable-use: one module for the four policies (app/routes.ts),
// each described in legal-documents.ts and written in its *-content.tsx.
export async function loader({ request, context }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname
  const document = LEGAL_DOCUMENTS.find((candidate) => candidate.path === path)
  if (!document) throw data(null, { status: 404 })
  const meta = await seo(
    { title: (site) => `${document.title} | ${site}`, description: document.seo.description, path, keywords: document.seo.keywords },
    context,
  )
  return publicPageData({ meta, path }, request, context, 'static')
}

export const meta = loaderMeta

export const handle = readingPage

export const headers: Route.HeadersFunction = publicPageHeaders

export default function LegalDocumentPage() {
  const { path } = useLoaderData<typeof loader>()
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  const document = LEGAL_DOCUMENTS.find((candidate) => candidate.path === path)
  const content = LEGAL_CONTENT[path]
  if (!document || !content) return null
  return (
    <LegalPage
      title={document.title}
      summary={content.summary}
      lastUpdated={site.policyDates[document.dateKey]}
      sections={content.sections(site)}
      related={LEGAL_DOCUMENTS.filter((other) => other.path !== path).map((other) => ({ to: other.path, label: other.title }))}
    />
  )
}
