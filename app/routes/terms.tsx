import { useRouteLoaderData } from 'react-router'
import type { Route } from './+types/terms'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { TERMS_SUMMARY, termsSections } from '#app/features/legal/terms-content.tsx'
import { LegalPage } from '#app/features/legal/legal-page.tsx'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { defaultSiteConfig } from '#common/site.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = await seo(
    {
      title: (site) => `Terms of Service | ${site}`,
      description:
        'Aether Terms of Service: accounts, subscriptions and billing, the 14-day free trial, the 30-day money-back guarantee, refunds and liability.',
      path: '/terms',
      keywords: ['terms of service', 'Aether terms', 'refund policy', 'money-back guarantee', 'subscription billing'],
    },
    context,
  )
  return publicPageData({ meta }, request, context, 'static')
}

export const meta = loaderMeta

export const headers: Route.HeadersFunction = publicPageHeaders

const RELATED = [
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/cookies', label: 'Cookie Policy' },
  { to: '/acceptable-use', label: 'Acceptable Use Policy' },
]

export default function TermsPage() {
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  return (
    <LegalPage
      title="Terms of Service"
      summary={TERMS_SUMMARY}
      lastUpdated={site.policyDates.terms}
      sections={termsSections(site)}
      related={RELATED}
    />
  )
}
