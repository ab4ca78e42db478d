/**
 * Pages follow the API's order (docs/decisions/015): who are you -> may you -> is your input
 * valid -> act. Every loader and action of a page that needs a session or the admin role is
 * called here, as the route module itself, with invalid addresses, queries and bodies, by a
 * visitor and (for admin pages) by a member: each is refused as the page's rule says, and the
 * refusal comes before the body is read. A new page module must be listed below, or this fails.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { AppLoadContext } from 'react-router'
import { pageOutcome, pageRoutes } from '#server/testing/page-modules.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'

type Rule = 'member' | 'admin'
/** Pages anyone may load and post to (they validate their input themselves). */
const PUBLIC = new Set([
  'routes/site-layout.tsx',
  'routes/home.tsx',
  'routes/auth.tsx',
  'routes/about.tsx',
  'routes/careers.tsx',
  'routes/contact.tsx',
  'routes/legal.tsx',
  'routes/legal-document.tsx',
  'routes/blog.tsx',
  'routes/blog-post.tsx',
  'routes/services.tsx',
  'routes/extension.tsx',
  'routes/forgot-password.tsx',
  'routes/reset-password.tsx',
  'routes/verify-email.tsx',
  'routes/confirm-email.tsx',
  'routes/sign-out.tsx',
  // Its credential is the aether_view_as cookie, not a session (docs/decisions/064).
  'routes/view-as-end.tsx',
  'routes/preferences.tsx',
  'routes/blog-rss.ts',
  'routes/blog-cover.ts',
  'routes/uploaded-cover.ts',
  'routes/sitemap.ts',
  'routes/robots.ts',
  'routes/og-image.ts',
  'routes/not-found.tsx',
])

/**
 * Pages behind a rule; `loader: false` where the page's loader is public: the invitation page
 * shows the invitation to anyone, and the form-only addresses send a GET elsewhere.
 * `returnsTo`: the loader sends a visitor to sign in with the page's own address to come back to.
 */
const PROTECTED: Record<string, { rule: Rule; loader?: false; action?: false; returnsTo?: true }> = {
  'routes/member-layout.tsx': { rule: 'member' },
  'routes/dashboard.tsx': { rule: 'member' },
  'routes/automation-builder.tsx': { rule: 'member' },
  'routes/run-detail.tsx': { rule: 'member' },
  'routes/settings.tsx': { rule: 'member' },
  'routes/billing.tsx': { rule: 'member' },
  'routes/billing-history.tsx': { rule: 'member' },
  'routes/billing-checkout.tsx': { rule: 'member' },
  'routes/billing-invoice.tsx': { rule: 'member' },
  'routes/billing-portal.tsx': { rule: 'member' },
  'routes/billing-portal-invoice.tsx': { rule: 'member' },
  'routes/workspace.tsx': { rule: 'member' },
  'routes/workspace-activity.tsx': { rule: 'member' },
  'routes/workspace-webhooks.tsx': { rule: 'member' },
  'routes/workspace-vault.tsx': { rule: 'member' },
  'routes/workspace-switch.tsx': { rule: 'member', loader: false },
  'routes/verify-email-resend.tsx': { rule: 'member', loader: false },
  'routes/select-free-plan.tsx': { rule: 'member', loader: false },
  'routes/invitation-accept.tsx': { rule: 'member', loader: false },
  'routes/connect.tsx': { rule: 'member', returnsTo: true },
  'routes/settings-data-export.ts': { rule: 'member', returnsTo: true },
  'routes/admin.tsx': { rule: 'admin' },
  'routes/admin-users.tsx': { rule: 'admin' },
  'routes/admin-blog.tsx': { rule: 'admin' },
  'routes/admin-inquiries.tsx': { rule: 'admin' },
  'routes/admin-subscriptions.tsx': { rule: 'admin' },
  'routes/admin-overview.tsx': { rule: 'admin' },
  'routes/admin-plan.tsx': { rule: 'admin' },
  'routes/admin-settings.tsx': { rule: 'admin' },
  'routes/admin-runs.tsx': { rule: 'admin' },
  'routes/admin-user-timeline.tsx': { rule: 'admin' },
  'routes/admin-templates.tsx': { rule: 'admin' },
  'routes/templates.tsx': { rule: 'member' },
  'routes/diagnostics.tsx': { rule: 'admin' },
}

const pages = pageRoutes()
const files = [...new Set(pages.map((page) => page.file))]

const t: TestApp = await createTestApp()
afterAll(async () => {
  await t.close()
})
const memberAccount = await t.signUp()
const member = (await t.services.sessions.resolve({ kind: 'bearer', token: memberAccount.token })).user

function context(user: AppLoadContext['user']): AppLoadContext {
  return {
    services: t.services,
    user,
    credential: null,
    cspNonce: 'nonce',
    clientIp: t.freshIp(),
    publicUrl: TEST_PUBLIC_URL,
    reportError: (error) => {
      throw error
    },
  }
}

/** Invalid ids, queries and bodies: whatever the page would refuse as input, it must refuse the caller first. */
const PARAMS = { id: 'not-an-id%00', slug: '', file: '../x', '*': 'x' }
const QUERY = '?page=-1&plan=%00&token=&member=%ff&auditPage=abc&search=' + 'x'.repeat(500)
const BODIES: Array<[string, string, string]> = [
  ['an invalid form', 'application/x-www-form-urlencoded', 'intent=%ff%00&id=nope&credits=-1&email=x&role=superuser'],
  ['an empty form', 'application/x-www-form-urlencoded', ''],
  ['a body that is no form', 'application/json', '{"intent":'],
]

/** A request whose body records whether anything read it. */
function post(body: string, type: string) {
  const state = { read: false }
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.read = true
        controller.enqueue(new TextEncoder().encode(body))
        controller.close()
      },
    },
    { highWaterMark: 0 },
  )
  const request = new Request(`${TEST_PUBLIC_URL}/page${QUERY}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: stream,
    duplex: 'half',
  } as RequestInit)
  return { request, state }
}

function expectRefused(
  outcome: { status: number; location: string | null; error?: unknown },
  caller: 'visitor' | 'member',
  kind: 'loader' | 'action',
  signInLocation = '/auth',
) {
  expect(outcome.error).toBeUndefined()
  if (caller === 'visitor') {
    // Pages send visitors to sign in; admin actions answer the panel's 401.
    if (outcome.status === 401) return
    expect(outcome).toEqual({ status: 302, location: signInLocation })
  } else if (kind === 'loader') {
    expect(outcome).toEqual({ status: 302, location: '/dashboard' })
  } else {
    expect(outcome.status).toBe(403)
  }
}

describe('page authorization comes before input', () => {
  it('knows every page module of the app', () => {
    const unknown = files.filter((file) => !PUBLIC.has(file) && !(file in PROTECTED))
    expect(unknown, 'list new page modules in PUBLIC or PROTECTED').toEqual([])
    for (const file of Object.keys(PROTECTED)) expect(files, `${file} is in app/routes.ts`).toContain(file)
  })

  const cases = Object.entries(PROTECTED).flatMap(([file, expectation]) => {
    const callers = expectation.rule === 'admin' ? (['visitor', 'member'] as const) : (['visitor'] as const)
    return callers.map((caller) => [`${file} as a ${caller}`, file, expectation, caller] as const)
  })

  it.each(cases)('%s', async (_name, file, expectation, caller) => {
    const module = await pages.find((page) => page.file === file)!.load()
    const user = caller === 'member' ? member : null
    if (module.loader && expectation.loader !== false) {
      const request = new Request(`${TEST_PUBLIC_URL}/page${QUERY}`)
      const signIn = expectation.returnsTo ? `/auth?returnTo=${encodeURIComponent(`/page${QUERY}`)}` : '/auth'
      expectRefused(await pageOutcome(() => module.loader!({ request, params: PARAMS, context: context(user) })), caller, 'loader', signIn)
    }
    if (module.action && expectation.action !== false) {
      for (const [, type, body] of BODIES) {
        const { request, state } = post(body, type)
        expectRefused(await pageOutcome(() => module.action!({ request, params: PARAMS, context: context(user) })), caller, 'action')
        expect(state.read, 'the body was read before the caller was refused').toBe(false)
      }
    }
    expect(module.loader || module.action).toBeTruthy()
  })
})
