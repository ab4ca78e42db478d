import { parseWithZod } from '@conform-to/zod/v4'
import { lazy, Suspense, useEffect, useState } from 'react'
import { data, useActionData, useRouteLoaderData } from 'react-router'
import { toast } from '#app/lib/toast.ts'
import type { Route } from './+types/services'
import { publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { AboutMeCard } from '#app/features/services/about-me-card.tsx'
import { ServicesHero } from '#app/features/services/services-hero.tsx'
import { ServicesPricingCard } from '#app/features/services/services-pricing-card.tsx'
import { ServicesTabs } from '#app/features/services/services-tabs.tsx'
import { WhyAutomate } from '#app/features/services/why-automate.tsx'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { AppError, RateLimited } from '#common/errors.ts'
import { inquiryInputSchema } from '#common/inquiries.ts'
import type { ProjectType } from '#common/inquiry-fields.ts'
import { defaultSiteConfig } from '#common/site.ts'

// The form's validation (zod + Conform) is the heaviest code on the page: it loads after the page
// itself. The server renders the form, and before its code arrives it is a plain POST form.
const InquiryForm = lazy(() => import('#app/features/services/inquiry-form.tsx').then((module) => ({ default: module.InquiryForm })))

const FALLBACK_ERROR = "Your inquiry couldn't be sent. Please try again later."

export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = await seo(
    {
      title: (site) => `Custom Automation Services | Web Scraping, Workflows & Tools | ${site}`,
      description:
        'Hire an automation specialist for web scraping, process automation and custom tools. $35/hour or a fixed price by scope; a reply within 24 hours.',
      path: '/services',
      keywords: [
        'automation services',
        'web scraping services',
        'process automation',
        'custom automation tools',
        'browser extension development',
        'Aether',
      ],
    },
    context,
  )
  return publicPageData({ meta }, request, context, 'dynamic')
}

export async function action({ request, context }: Route.ActionArgs) {
  const noStore = { 'Cache-Control': 'private, no-store' }
  const submission = parseWithZod(await request.formData(), { schema: inquiryInputSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), sent: false, error: null }, { status: 400, headers: noStore })
  }
  try {
    await context.services.inquiries.submit(submission.value, { ip: context.clientIp })
  } catch (error) {
    if (!(error instanceof AppError)) {
      console.error(error)
      return data(
        { result: submission.reply({ formErrors: [FALLBACK_ERROR] }), sent: false, error: FALLBACK_ERROR },
        { status: 500, headers: noStore },
      )
    }
    const headers = error instanceof RateLimited ? { ...noStore, 'Retry-After': String(error.retryAfterSeconds) } : noStore
    return data(
      { result: submission.reply({ formErrors: [error.message] }), sent: false, error: error.message },
      { status: error.status, headers },
    )
  }
  return data({ result: submission.reply({ resetForm: true }), sent: true, error: null }, { headers: noStore })
}

export const meta = loaderMeta

export const headers: Route.HeadersFunction = publicPageHeaders

export default function ServicesPage() {
  const actionData = useActionData<typeof action>()
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  const [projectType, setProjectType] = useState<ProjectType>('data-scraping')
  // A sent inquiry clears the form: its project type goes back to the default too.
  const [answered, setAnswered] = useState(actionData)
  if (actionData !== answered) {
    setAnswered(actionData)
    if (actionData?.sent) setProjectType('data-scraping')
  }

  useEffect(() => {
    if (actionData?.sent) toast.success('Inquiry sent!', { description: "I'll get back to you within 24 hours." })
    else if (actionData?.error) toast.error('Something went wrong', { description: actionData.error })
  }, [actionData])

  return (
    <main>
      <ServicesHero />
      <WhyAutomate />
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-12 sm:px-6 md:grid-cols-[3fr_2fr]">
        <AboutMeCard site={site} />
        <ServicesPricingCard hourlyRateUsd={site.services.hourlyRateUsd} />
      </div>
      <ServicesTabs onSelect={setProjectType} />
      <section id="inquiry" aria-labelledby="inquiry-heading" className="scroll-mt-20 px-4 py-12 sm:px-6">
        <div className="mx-auto max-w-2xl rounded-lg border bg-card p-6 text-card-foreground sm:p-8">
          <h2 id="inquiry-heading" className="text-2xl font-bold tracking-tight">
            Let&apos;s Discuss Your Project
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">Tell me what you need. I&apos;ll get back to you within 24 hours.</p>
          <div className="mt-6">
            <Suspense fallback={null}>
              <InquiryForm lastResult={actionData?.result} projectType={projectType} onProjectTypeChange={setProjectType} />
            </Suspense>
          </div>
        </div>
      </section>
    </main>
  )
}
