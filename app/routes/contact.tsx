import { parseWithZod } from '@conform-to/zod/v4'
import { ChevronDown, Clock, ExternalLink, Mail, Puzzle } from 'lucide-react'
import { useEffect } from 'react'
import { data, Link, redirect, useActionData, useLocation, useRouteLoaderData } from 'react-router'
import { toast } from '#app/lib/toast.ts'
import type { Route } from './+types/contact'
import { BackButton } from '#app/components/ui/back-button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '#app/components/ui/card.tsx'
import { ContactForm } from '#app/features/company/contact-form.tsx'
import { CONTACT_FAQ } from '#app/features/company/contact-faq.tsx'
import { FounderAvatar } from '#app/features/company/founder-avatar.tsx'
import { PAGE_CACHE, publicPageData, publicPageHeaders } from '#app/lib/page-cache.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { AppError, RateLimited } from '#common/errors.ts'
import { contactMessageSchema } from '#common/inquiries.ts'
import { defaultSiteConfig } from '#common/site.ts'

const FALLBACK_ERROR = "Your message couldn't be sent. Please try again later."

export async function loader({ request, context }: Route.LoaderArgs) {
  const meta = await seo(
    {
      title: (site) => `Contact ${site} | Questions, Support and Feedback`,
      description:
        'Send Aether a message and get a reply within 24 hours. Support Monday to Friday, 9am to 5pm CET, plus answers to common questions.',
      path: '/contact',
      keywords: ['contact Aether', 'Aether support', 'customer support', 'free trial', 'money-back guarantee'],
    },
    context,
  )
  return publicPageData({ meta }, request, context, 'static')
}

export async function action({ request, context }: Route.ActionArgs) {
  const noStore = { 'Cache-Control': PAGE_CACHE.private }
  const submission = parseWithZod(await request.formData(), { schema: contactMessageSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), error: null }, { status: 400, headers: noStore })
  }
  try {
    await context.services.inquiries.submitContactMessage(submission.value, { ip: context.clientIp })
  } catch (error) {
    if (!(error instanceof AppError)) {
      console.error(error)
      return data({ result: submission.reply({ formErrors: [FALLBACK_ERROR] }), error: FALLBACK_ERROR }, { status: 500, headers: noStore })
    }
    const headers = error instanceof RateLimited ? { ...noStore, 'Retry-After': String(error.retryAfterSeconds) } : noStore
    return data({ result: submission.reply({ formErrors: [error.message] }), error: error.message }, { status: error.status, headers })
  }
  // Post/redirect/get: the fresh page has empty fields, and the flash cookie carries the toast.
  const flash = await flashHeader({ type: 'success', title: 'Message sent!', description: "I'll get back to you within 24 hours." })
  return redirect('/contact', { headers: withCookies([flash], noStore) })
}

export const meta = loaderMeta

export const headers: Route.HeadersFunction = publicPageHeaders

export default function ContactPage() {
  const site = useRouteLoaderData<typeof rootLoader>('root')?.site ?? defaultSiteConfig
  const actionData = useActionData<typeof action>()
  const location = useLocation()

  useEffect(() => {
    if (actionData && actionData.result.status === 'error' && actionData.error !== null) {
      toast.error('Something went wrong', { description: actionData.error || FALLBACK_ERROR })
    }
  }, [actionData])

  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-16">
      <BackButton />
      <header className="mt-6 max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Contact Us</h1>
        <p className="mt-4 text-muted-foreground">
          Questions about Aether, feedback, or an idea for a feature? Send a message and I&apos;ll get back to you within 24 hours.
        </p>
      </header>

      <div className="mt-10 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <CardHeader>
            <h2 className="text-xl font-semibold tracking-tight">Send a Message</h2>
            <CardDescription>All fields except the subject are required.</CardDescription>
          </CardHeader>
          <CardContent>
            {/* A new location (the redirect after sending) mounts a fresh, empty form. */}
            <ContactForm key={location.key} lastResult={actionData?.result} />
          </CardContent>
        </Card>

        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <h2 className="text-xl font-semibold tracking-tight">Contact Information</h2>
            </CardHeader>
            <CardContent className="space-y-4 text-sm">
              <div className="flex gap-3">
                <Mail className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
                <div>
                  <p className="font-medium">Email</p>
                  <a href={`mailto:${site.contactEmail}`} className="break-all text-primary underline-offset-4 hover:underline">
                    {site.contactEmail}
                  </a>
                </div>
              </div>
              <div className="flex gap-3">
                <Clock className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
                <div>
                  <p className="font-medium">Support Hours</p>
                  <p className="text-muted-foreground">{site.supportHours}</p>
                </div>
              </div>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <h2 className="text-xl font-semibold tracking-tight">Meet the Founder</h2>
            </CardHeader>
            <CardContent>
              <div className="flex items-center gap-4">
                <FounderAvatar name={site.founder.name} className="size-14" />
                <div>
                  <p className="font-semibold">{site.founder.name}</p>
                  <p className="text-sm text-muted-foreground">{site.founder.role}</p>
                </div>
              </div>
              <p className="mt-4 text-sm leading-6 text-muted-foreground">
                Every message lands in my inbox, not a ticket queue. With over {site.founder.yearsOfExperience} years of building
                automation, I&apos;m happy to help with questions big and small.
              </p>
              <Link to="/about" className="mt-3 inline-block text-sm font-medium text-primary underline-offset-4 hover:underline">
                More about Aether
              </Link>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <h2 className="flex items-center gap-2 text-xl font-semibold tracking-tight">
                <Puzzle className="size-5 text-primary" aria-hidden="true" />
                Browser Extension
              </h2>
              <CardDescription>Start automating right in your browser.</CardDescription>
            </CardHeader>
            <CardContent>
              <a
                href={site.links.extension}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                Get the browser extension
                <ExternalLink className="size-4" aria-hidden="true" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </CardContent>
          </Card>
        </div>
      </div>

      <section aria-labelledby="faq" className="mt-16">
        <h2 id="faq" className="text-2xl font-semibold tracking-tight">
          Frequently Asked Questions
        </h2>
        <div className="mt-6 divide-y rounded-lg border bg-card">
          {CONTACT_FAQ.map((item) => (
            <details key={item.question} className="group">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-lg px-5 py-4 font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&::-webkit-details-marker]:hidden">
                {item.question}
                <ChevronDown
                  className="size-5 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                  aria-hidden="true"
                />
              </summary>
              <div className="px-5 pb-5 text-sm leading-6 text-muted-foreground">{item.answer}</div>
            </details>
          ))}
        </div>
      </section>
    </main>
  )
}
