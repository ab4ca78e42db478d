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
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { readingPage } from '#app/lib/reading-page.ts'
import { checkoutSetup } from '#app/features/billing/checkout-setup.server.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.user
  // Plans are bought for the workspace the member works in when they own it, else for their personal one.
  const buying = user ? (user.workspace?.role === 'owner' ? user.workspace.id : user.id) : null
  const plans = await context.services.plans.list()
  const meta = await seo(
    {
      title: (site) => `${site} — AI-powered browser and desktop automation`,
      // The site description of System Settings.
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
    context,
  )
  return publicPageData(
    {
      // In the admin's order; a plan that cannot be bought is not offered (docs/decisions/041).
      plans: plans
        .filter((plan) => context.services.billing.saleOf(plan).forSale)
        .map(({ slug, name, price, description, features, highlighted, paddlePriceId }) => ({
          slug,
          name,
          price,
          description,
          features,
          highlighted,
          priceId: context.services.billing.priceIdOf({ paddlePriceId }),
        })),
      currentPlan: user ? (user.workspace?.planSlug ?? user.profile.subscriptionPlan) : null,
      subscribed: buying ? Boolean(await context.services.billing.currentSubscription(buying)) : false,
      checkout: checkoutSetup(context.services.billing, buying, user),
      jsonLd: organizationJsonLd(context.services.site, context.publicUrl),
      meta,
    },
    request,
    context,
    'dynamic',
  )
}

export const meta = loaderMeta

export const handle = readingPage

export const headers: Route.HeadersFunction = publicPageHeaders

export default function Home() {
  const { plans, currentPlan, subscribed, checkout, jsonLd } = useLoaderData<typeof loader>()
  const nonce = useRouteLoaderData<typeof rootLoader>('root')?.cspNonce
  const startHref = (checkout.buyer ?? checkout.refusal) ? '/dashboard' : '/auth?mode=signup'
  return (
    <main>
      <script type="application/ld+json" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: jsonLd }} />
      <Hero startHref={startHref} />
      <Highlights />
      <FeaturesSection />
      <HowItWorks startHref={startHref} />
      <PricingSection plans={plans} currentPlan={currentPlan} subscribed={subscribed} checkout={checkout} />
      <CtaBanner startHref={startHref} />
    </main>
  )
}
