import { useRouteLoaderData } from 'react-router'
import type { Route } from './+types/acceptable-use'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { ACCEPTABLE_USE_SUMMARY, acceptableUseSections } from '#app/features/legal/acceptable-use-content.tsx'
import { LegalPage } from '#app/features/legal/legal-page.tsx'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { defaultSiteConfig } from '#common/site.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = await seo(
    {
      title: (site) => `Acceptable Use Policy | ${site}`,
      description:
        'What you may and may not do with Aether and its automations, our content standards, how we enforce them and how to report misuse.',
      path: '/acceptable-use',
      keywords: ['acceptable use policy', 'Aether rules', 'automation policy', 'content standards', 'report abuse'],
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
  { to: '/cookies', label: 'Cookie Policy' },
]

export default function AcceptableUsePage() {
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  return (
    <LegalPage
      title="Acceptable Use Policy"
      summary={ACCEPTABLE_USE_SUMMARY}
      lastUpdated={site.policyDates.acceptableUse}
      sections={acceptableUseSections(site)}
      related={RELATED}
    />
  )
}
