import type { AppLoadContext } from 'react-router'
import { readFlash } from '#app/lib/flash.server.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { VerificationBannerProps } from './verification-banner.tsx'

/** What the verification banner shows on a member page, or null once the address is verified. */
export async function verificationBannerOf(
  request: Request,
  context: AppLoadContext,
  user: SessionUser,
): Promise<VerificationBannerProps | null> {
  if (user.emailVerified) return null
  const [plans, { flash }] = await Promise.all([context.services.plans.list(), readFlash(request)])
  const free = plans.find((plan) => plan.slug === 'free')
  return {
    email: user.email,
    freeRuns: free?.monthlyRunLimit ?? null,
    // The root loader clears the flash; the banner shows the one "Resend" left for it.
    notice: flash?.inline ? { ok: flash.type === 'success', text: flash.description ?? flash.title } : null,
  }
}
