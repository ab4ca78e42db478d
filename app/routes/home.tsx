import { useLoaderData, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/home'
import { CtaBanner } from '#app/features/home/cta-banner.tsx'
import { FeaturesSection } from '#app/features/home/features-section.tsx'
import { Hero } from '#app/features/home/hero.tsx'
import { Highlights } from '#app/features/home/highlights.tsx'
import { HowItWorks } from '#app/features/home/how-it-works.tsx'
import { organizationJsonLd } from '#app/features/home/organization-json-ld.ts'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { PricingSection } from '#app/features/home/pricing-section.tsx'
import { seo, seoSite } from '#app/lib/seo.ts'
import type { loader as rootLoader } from '#app/root.tsx'

export async function loader({ request, context }: Route.LoaderArgs) {
  const plans = await context.services.plans.list()
  return publicPageData(
    {
      plans: plans.map(({ slug, name, price, description, features, highlighted }) => ({
        slug,
        name,
        price,
        description,
        features,
        highlighted,
      })),
      signedIn: Boolean(context.user),
      currentPlan: context.user?.profile.subscriptionPlan ?? null,
      jsonLd: organizationJsonLd(context.services.site, context.publicUrl),
    },
    request,
    context,
    'dynamic',
  )
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: 'Aether — AI-powered browser and desktop automation',
      description:
        'Automate repetitive tasks with AI-powered tools that save time: Chrome extensions, desktop apps and smart workflows for data entry, form submission and site navigation.',
      path: '/',
      keywords: [
        'AI automation',
        'browser automation',
        'desktop automation',
        'workflow automation',
        'Chrome extension',
        'no-code automation',
        'Aether',
      ],
    },
    seoSite(matches),
  )

export const headers: Route.HeadersFunction = publicPageHeaders

export default function Home() {
  const { plans, signedIn, currentPlan, jsonLd } = useLoaderData<typeof loader>()
  const nonce = useRouteLoaderData<typeof rootLoader>('root')?.cspNonce
  const startHref = signedIn ? '/dashboard' : '/auth?mode=signup'
  return (
    <main>
      <script type="application/ld+json" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: jsonLd }} />
      <Hero startHref={startHref} />
      <Highlights />
      <FeaturesSection />
      <HowItWorks startHref={startHref} />
      <PricingSection plans={plans} signedIn={signedIn} currentPlan={currentPlan} />
      <CtaBanner startHref={startHref} />
    </main>
  )
}
