import { useRouteLoaderData } from 'react-router'
import type { Route } from './+types/privacy'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { PRIVACY_SUMMARY, privacySections } from '#app/features/legal/privacy-content.tsx'
import { LegalPage } from '#app/features/legal/legal-page.tsx'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { defaultSiteConfig } from '#common/site.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = await seo(
    {
      title: (site) => `Privacy Policy | ${site}`,
      description: 'How Aether collects, uses, protects and retains your personal data, and how to use your rights under the GDPR.',
      path: '/privacy',
      keywords: ['privacy policy', 'Aether privacy', 'personal data', 'GDPR', 'data security'],
    },
    context,
  )
  return publicPageData({ meta }, request, context, 'static')
}

export const meta = loaderMeta

export const headers: Route.HeadersFunction = publicPageHeaders

const RELATED = [
  { to: '/terms', label: 'Terms of Service' },
  { to: '/cookies', label: 'Cookie Policy' },
  { to: '/acceptable-use', label: 'Acceptable Use Policy' },
]

export default function PrivacyPage() {
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  return (
    <LegalPage
      title="Privacy Policy"
      summary={PRIVACY_SUMMARY}
      lastUpdated={site.policyDates.privacy}
      sections={privacySections(site)}
      related={RELATED}
    />
  )
}
