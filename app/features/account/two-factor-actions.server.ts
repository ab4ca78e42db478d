import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type AppLoadContext } from 'react-router'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader, type Flash } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { passwordConfirmSchema, twoFactorConfirmSchema, twoFactorDisableSchema } from '#common/two-factor.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import { qrCodeDataUri } from './qr-code.server.ts'
import type { TwoFactorIntent } from './two-factor-intents.ts'

/** What the card shows after a form: the set-up's QR code and secret, or recovery codes (this answer only). */
export interface TwoFactorAnswer {
  intent: TwoFactorIntent
  error: string | null
  setup?: { qrCode: string; secret: string; totpUri: string }
  recoveryCodes?: string[]
}

// Answers with a secret or recovery codes are the only place they appear: never cached, never redirected.
const NO_STORE = { 'Cache-Control': 'no-store' }

function refused(intent: TwoFactorIntent, error: string, status = 400) {
  return data<TwoFactorAnswer>({ intent, error }, { status })
}

async function done(flash: Flash, cookies: string[] = []) {
  return redirect('/settings#two-factor', { headers: withCookies([...cookies, await flashHeader(flash)]) })
}

export async function twoFactorAction(context: AppLoadContext, user: SessionUser, intent: TwoFactorIntent, form: FormData) {
  const { twoFactor, passkeys } = context.services
  const credential = context.credential
  const first = (error: Record<string, string[] | null> | null | undefined) => Object.values(error ?? {}).flat()[0] ?? 'Check the form.'

  if (intent === 'two-factor-setup' || intent === 'two-factor-recovery-codes') {
    const submission = parseWithZod(form, { schema: passwordConfirmSchema })
    if (submission.status !== 'success') return refused(intent, first(submission.error))
    if (intent === 'two-factor-setup') {
      const outcome = await attempt(() => twoFactor.beginSetup(user.id, submission.value, credential))
      if (!outcome.ok) return refused(intent, outcome.error.issues?.[0]?.message ?? outcome.error.message, outcome.error.status)
      const { totpUri, secret } = outcome.value
      return data<TwoFactorAnswer>(
        { intent, error: null, setup: { qrCode: qrCodeDataUri(totpUri), secret, totpUri } },
        { headers: NO_STORE },
      )
    }
    const outcome = await attempt(() => twoFactor.regenerateRecoveryCodes(user.id, submission.value, credential))
    if (!outcome.ok) return refused(intent, outcome.error.issues?.[0]?.message ?? outcome.error.message, outcome.error.status)
    return data<TwoFactorAnswer>({ intent, error: null, recoveryCodes: outcome.value }, { headers: NO_STORE })
  }
  if (intent === 'two-factor-confirm') {
    const submission = parseWithZod(form, { schema: twoFactorConfirmSchema })
    if (submission.status !== 'success') return refused(intent, first(submission.error))
    const outcome = await attempt(() => twoFactor.confirmSetup(user.id, submission.value.code, credential))
    if (!outcome.ok) return refused(intent, outcome.error.issues?.[0]?.message ?? outcome.error.message, outcome.error.status)
    // The session was replaced: its new cookie goes with the answer that shows the recovery codes.
    const headers = new Headers(NO_STORE)
    for (const cookie of outcome.value.setCookies) headers.append('Set-Cookie', cookie)
    return data<TwoFactorAnswer>({ intent, error: null, recoveryCodes: outcome.value.recoveryCodes }, { headers })
  }
  if (intent === 'two-factor-disable') {
    const password = String(form.get('password') ?? '')
    const code = String(form.get('code') ?? '')
    const submission = parseWithZod(form, { schema: twoFactorDisableSchema })
    if (submission.status !== 'success' || (!password && !code))
      return refused(intent, 'Enter your password or a code from your authenticator app.')
    const outcome = await attempt(() => twoFactor.disable(user.id, password ? { password } : { code }, credential))
    if (!outcome.ok) return refused(intent, outcome.error.issues?.[0]?.message ?? outcome.error.message, outcome.error.status)
    return done({ type: 'success', title: 'Two-factor sign-in turned off', description: 'Your password alone signs you in again.' })
  }
  if (intent === 'delete-passkey') {
    const outcome = await attempt(() => passkeys.remove(user.id, String(form.get('id') ?? '').slice(0, 200)))
    if (!outcome.ok) return refused(intent, outcome.error.message, outcome.error.status)
    return done({ type: 'success', title: 'Passkey deleted', description: `"${outcome.value.name}" no longer signs you in.` })
  }
  // Adding a passkey happens in the browser (WebAuthn): without JavaScript the form lands here.
  return refused(intent, 'Adding a passkey needs JavaScript: your browser asks your device to make the passkey.')
}
