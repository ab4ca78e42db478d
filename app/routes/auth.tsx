import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import {
  data,
  Form,
  Link,
  redirect,
  redirectDocument,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteLoaderData,
  useSearchParams,
} from 'react-router'
import { toast } from '#app/lib/toast.ts'
import type { Route } from './+types/auth'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { flashHeader, type Flash } from '#app/lib/flash.server.ts'
import { longDate } from '#common/account-data.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import type { loader as rootLoader } from '#app/root.tsx'
import { loginFieldsSchema, loginSchema, registerSchema } from '#common/auth.ts'
import { AppError } from '#common/errors.ts'
import { FieldError } from '#app/components/forms/field-error.tsx'
import { loaderMeta } from '#app/lib/seo.ts'
import { seo } from '#app/lib/seo.server.ts'
import { signInWithPasskey } from '#app/features/account/passkey-client.ts'
import { SecondFactorForm } from '#app/features/account/second-factor-form.tsx'
import { recoveryCodeFormSchema, secondFactorFormSchema } from '#common/two-factor.ts'
import { sameSitePath } from '#common/same-site-path.ts'

/**
 * Where to go once signed in: the page that sent the visitor here (`returnTo`, a path on this site
 * only: /connect sends a device's approval here and back, docs/decisions/031), else the dashboard.
 */
const returnPathOf = (search: URLSearchParams) => sameSitePath(search.get('returnTo'))
const afterSignIn = (request: Request) => returnPathOf(new URL(request.url).searchParams) ?? '/dashboard'
/** The same page with `returnTo` carried along. */
const withReturn = (path: string, returnTo: string | null) =>
  returnTo ? `${path}${path.includes('?') ? '&' : '?'}returnTo=${encodeURIComponent(returnTo)}` : path

/** On to where the member was going: a data export's link is a download, which the browser must load as a document. */
const goTo = (path: string, init: ResponseInit) =>
  path.startsWith('/settings/data-export/') ? redirectDocument(path, init) : redirect(path, init)

/** The toast after signing in; a sign-in that cancelled the account's deletion says so (docs/decisions/065). */
const welcomeBack = (deletionCancelled: Date | null): Flash =>
  deletionCancelled
    ? {
        type: 'success',
        title: 'Account deletion cancelled',
        description: `Welcome back! Signing in cancelled the deletion planned for ${longDate(deletionCancelled)}: your account stays as it was.`,
      }
    : { type: 'success', title: 'Welcome back!' }

/**
 * After a right password for an account with two-factor sign-in, the page asks for the code
 * (?step=two-factor) while Better Auth's two_factor cookie holds the ticket (5 minutes, docs/decisions/023).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (context.user) throw redirect(afterSignIn(request))
  const url = new URL(request.url)
  const askedForCode = url.searchParams.get('step') === 'two-factor'
  const ticket = askedForCode ? context.services.twoFactor.ticketOf(request.headers) : null
  // Every variant of the page (?mode=signup, ?returnTo=…) names /auth as its canonical address.
  const meta = await seo(
    {
      title: (site) => `Log In or Sign Up | ${site}`,
      description: 'Sign in to Aether or create a free account: automate the repetitive work in your browser and on your desktop.',
      path: '/auth',
      robots: 'noindex,follow',
    },
    context,
  )
  return { meta, secondStep: Boolean(ticket), recovery: url.searchParams.get('method') === 'recovery', expired: askedForCode && !ticket }
}

const EXPIRED = 'Your sign-in expired. Please enter your email and password again.'

/** The second step: the app's code or a recovery code, with the ticket from the cookie. */
async function secondFactor(request: Request, formData: FormData, context: Route.ActionArgs['context']) {
  const ticket = context.services.twoFactor.ticketOf(request.headers)
  if (!ticket) return data({ result: undefined, error: EXPIRED }, { status: 401 })
  const recovery = formData.has('recoveryCode')
  const submission = parseWithZod(formData, { schema: recovery ? recoveryCodeFormSchema : secondFactorFormSchema })
  if (submission.status !== 'success') {
    const message = Object.values(submission.error ?? {}).flat()[0] ?? 'Enter the code.'
    return data({ result: undefined, error: message }, { status: 400 })
  }
  try {
    const signedIn = await context.services.twoFactor.completeSignIn(
      { ticket, ...submission.value },
      { headers: request.headers, ip: context.clientIp },
    )
    const flash = await flashHeader(welcomeBack(signedIn.deletionCancelled))
    return goTo(afterSignIn(request), { headers: withCookies([...signedIn.setCookies, flash]) })
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return data({ result: undefined, error: error.message }, { status: error.status })
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData()
  if (formData.get('intent') === 'second-factor') return secondFactor(request, formData, context)
  const signingUp = formData.get('intent') === 'signup'
  const submission = parseWithZod(formData, { schema: signingUp ? registerSchema : loginSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password'] }), error: null }, { status: 400 })
  }
  const caller = { headers: request.headers, ip: context.clientIp }
  try {
    if (signingUp) {
      await context.services.auth.register(submission.value, caller)
      const flash = await flashHeader({
        type: 'success',
        title: 'Account created successfully!',
        description: 'Please log in with your email and password.',
      })
      return redirect(withReturn('/auth?registered=1', returnPathOf(new URL(request.url).searchParams)), { headers: withCookies([flash]) })
    }
    const session = await context.services.auth.login(submission.value, caller)
    const returnTo = returnPathOf(new URL(request.url).searchParams)
    if (session.secondFactor) return redirect(withReturn('/auth?step=two-factor', returnTo), { headers: withCookies(session.setCookies) })
    const flash = await flashHeader(welcomeBack(session.deletionCancelled))
    return goTo(returnTo ?? '/dashboard', { headers: withCookies([...session.setCookies, flash]) })
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return data(
      { result: submission.reply({ formErrors: [error.message], hideFields: ['password'] }), error: error.message },
      { status: error.status },
    )
  }
}

export const meta = loaderMeta

export default function AuthPage() {
  const { secondStep, recovery, expired } = useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  const signingUp = searchParams.get('mode') === 'signup'
  const registered = searchParams.get('registered') === '1'
  const returnTo = returnPathOf(searchParams)
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formAction?.startsWith('/auth') === true
  const root = useRouteLoaderData<typeof rootLoader>('root')
  const schema = signingUp ? registerSchema : loginSchema

  const [form, fields] = useForm<{ email: string; password: string; fullName?: string }>({
    id: signingUp ? 'sign-up' : 'sign-in',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    // The browser's own checks (required, type=email); the sign-in schema's spec message is the server's too.
    constraint: getZodConstraint(signingUp ? registerSchema : loginFieldsSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })

  useEffect(() => {
    if (actionData?.error) toast.error('Authentication error', { description: actionData.error })
  }, [actionData])

  async function continueWithGoogle() {
    if (!root?.googleEnabled) {
      toast('Coming Soon', { description: 'Google sign-in is coming soon. Please use your email and password for now.' })
      return
    }
    const response = await fetch('/api/identity/sign-in/social', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ provider: 'google', callbackURL: returnTo ?? '/dashboard' }),
    })
    const body = (await response.json().catch(() => null)) as { url?: string; message?: string } | null
    if (response.ok && body?.url) window.location.assign(body.url)
    else toast.error('Authentication error', { description: body?.message ?? 'Google sign-in failed. Please try again.' })
  }

  async function continueWithPasskey() {
    const refused = await signInWithPasskey()
    if (refused) toast.error('Passkey sign-in failed', { description: refused })
    else window.location.assign(returnTo ?? '/dashboard')
  }

  if (secondStep) {
    return (
      <main className="mx-auto flex min-h-[calc(100vh-4rem)] max-w-md flex-col justify-center px-4 py-16">
        <Card>
          <CardHeader className="text-center">
            <h1 className="text-2xl font-semibold tracking-tight">Two-factor sign-in</h1>
            <CardDescription>Your password was right. One more step.</CardDescription>
          </CardHeader>
          <CardContent>
            <SecondFactorForm key={recovery ? 'recovery' : 'code'} recovery={recovery} error={actionData?.error ?? null} />
          </CardContent>
        </Card>
      </main>
    )
  }

  return (
    <main className="mx-auto flex min-h-[calc(100vh-4rem)] max-w-md flex-col justify-center px-4 py-16">
      <Card>
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold tracking-tight">{signingUp ? 'Create your account' : 'Sign in to Aether'}</h1>
          <CardDescription>{signingUp ? 'Start automating for free.' : 'Log in to your Aether account.'}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          {expired && !signingUp ? (
            <p role="status" className="rounded-md border p-3 text-sm text-muted-foreground">
              {EXPIRED}
            </p>
          ) : null}
          {returnTo?.startsWith('/connect') ? (
            <p role="status" className="rounded-md border p-3 text-sm text-muted-foreground">
              Sign in to connect your device. You come back to it right after.
            </p>
          ) : null}
          {registered && !signingUp ? (
            <p role="status" className="rounded-md border border-primary/40 bg-accent p-3 text-sm text-accent-foreground">
              Your account is ready. Please log in with your email and password.
            </p>
          ) : null}
          <Form method="post" className="space-y-4" {...getFormProps(form)}>
            <input type="hidden" name="intent" value={signingUp ? 'signup' : 'signin'} />
            <div className="space-y-2">
              <Label htmlFor={fields.email.id}>Email</Label>
              <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" placeholder="you@example.com" />
              <FieldError id={fields.email.errorId} errors={fields.email.errors} />
            </div>
            <div className="space-y-2">
              <Label htmlFor={fields.password.id}>Password</Label>
              <Input
                {...getInputProps(fields.password, { type: 'password' })}
                autoComplete={signingUp ? 'new-password' : 'current-password'}
              />
              <FieldError id={fields.password.errorId} errors={fields.password.errors} />
            </div>
            <FieldError id={form.errorId} errors={form.errors} />
            {signingUp ? null : (
              <p className="text-right text-sm">
                <Link to="/forgot-password" className="text-muted-foreground hover:text-foreground hover:underline">
                  Forgot your password?
                </Link>
              </p>
            )}
            <Button type="submit" className="w-full" disabled={busy}>
              {busy ? 'Please wait' : signingUp ? 'Create Account' : 'Sign In'}
            </Button>
          </Form>
          <div className="relative text-center text-xs text-muted-foreground uppercase">
            <span className="bg-card px-2">or</span>
          </div>
          <Button type="button" variant="outline" className="w-full" onClick={() => void continueWithGoogle()}>
            Continue with Google
          </Button>
          {signingUp ? null : (
            <Button type="button" variant="outline" className="w-full" onClick={() => void continueWithPasskey()}>
              Sign in with a passkey
            </Button>
          )}
          <p className="text-center text-sm text-muted-foreground">
            {signingUp ? 'Already have an account? ' : "Don't have an account? "}
            <Link
              to={withReturn(signingUp ? '/auth' : '/auth?mode=signup', returnTo)}
              replace
              className="font-medium text-primary hover:underline"
            >
              {signingUp ? 'Sign in' : 'Create one'}
            </Link>
          </p>
        </CardContent>
      </Card>
    </main>
  )
}
