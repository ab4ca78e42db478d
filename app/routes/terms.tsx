import { useRouteLoaderData } from 'react-router'
import type { Route } from './+types/terms'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { TERMS_SUMMARY, termsSections } from '#app/features/legal/terms-content.tsx'
import { LegalPage } from '#app/features/legal/legal-page.tsx'
import { seo, seoSite } from '#app/lib/seo.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { defaultSiteConfig } from '#common/site.ts'

export function loader({ request, context }: Route.LoaderArgs) {
  return publicPageData(null, request, context, 'static')
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: 'Terms of Service | Aether',
      description:
        'Aether Terms of Service: accounts, subscriptions and billing, the 14-day free trial, the 30-day money-back guarantee, refunds and liability.',
      path: '/terms',
      keywords: ['terms of service', 'Aether terms', 'refund policy', 'money-back guarantee', 'subscription billing'],
    },
    seoSite(matches),
  )

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
