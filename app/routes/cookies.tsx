import { useRouteLoaderData } from 'react-router'
import type { Route } from './+types/cookies'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { COOKIES_SUMMARY, cookiesSections } from '#app/features/legal/cookies-content.tsx'
import { LegalPage } from '#app/features/legal/legal-page.tsx'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { defaultSiteConfig } from '#common/site.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = await seo(
    {
      title: (site) => `Cookie Policy | ${site}`,
      description: 'The cookies Aether uses, what each one does and how long it lasts, and how to accept or reject analytics cookies.',
      path: '/cookies',
      keywords: ['cookie policy', 'Aether cookies', 'analytics cookies', 'cookie consent', 'privacy'],
    },
    context,
  )
  return publicPageData({ meta }, request, context, 'static')
}

export const meta = loaderMeta

export const headers: Route.HeadersFunction = publicPageHeaders

const RELATED = [
  { to: '/terms', label: 'Terms of Service' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/acceptable-use', label: 'Acceptable Use Policy' },
]

export default function CookiesPage() {
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  return (
    <LegalPage
      title="Cookie Policy"
      summary={COOKIES_SUMMARY}
      lastUpdated={site.policyDates.cookies}
      sections={cookiesSections(site)}
      related={RELATED}
    />
  )
}
