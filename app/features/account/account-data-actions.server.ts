import { parseWithZod } from '@conform-to/zod/v4'
import { format } from 'date-fns'
import { data, redirect, type AppLoadContext } from 'react-router'
import { attempt } from '#app/lib/attempt.server.ts'
import { refusedSubmission } from '#app/lib/refused-submission.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { accountDeletionFormSchema, DATA_EXPORT_LINK_DAYS, longDate } from '#common/account-data.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { DataExportRow } from './data-export-card.tsx'
import type { DeletionState } from './delete-account-card.tsx'

export const ACCOUNT_DATA_INTENTS = ['request-data-export', 'delete-account'] as const
export type AccountDataIntent = (typeof ACCOUNT_DATA_INTENTS)[number]
export const isAccountDataIntent = (intent: string): intent is AccountDataIntent =>
  (ACCOUNT_DATA_INTENTS as readonly string[]).includes(intent)

const when = (date: Date) => format(date, "MMM d, yyyy 'at' HH:mm 'UTC'")

/**
 * Settings' "Download my data" and danger zone (docs/decisions/065): the member's latest export,
 * how they confirm a deletion, and a confirmation link's token when they came from its e-mail.
 */
export async function accountDataView(
  context: AppLoadContext,
  user: SessionUser,
  request: Request,
): Promise<{ dataExport: DataExportRow | null; deletion: DeletionState }> {
  const [latest, status] = await Promise.all([context.services.dataExports.latest(user.id), context.services.accountDeletion.status(user)])
  const token = new URL(request.url).searchParams.get('token')
  return {
    dataExport: latest
      ? {
          status: latest.status,
          requestedLabel: when(latest.requestedAt),
          expiresLabel: latest.expiresAt ? longDate(latest.expiresAt) : null,
          size: latest.bytes,
          downloadUrl: latest.downloadUrl ? new URL(latest.downloadUrl).pathname + new URL(latest.downloadUrl).search : null,
        }
      : null,
    deletion: { ...status, linkToken: token && token.length <= 300 ? token : null },
  }
}

/** "Download my data" and "Delete my account": the services the API's POST /account/export and /account/deletion call. */
export async function accountDataAction(context: AppLoadContext, user: SessionUser, intent: AccountDataIntent, form: FormData) {
  if (intent === 'request-data-export') {
    const asked = await attempt(() => context.services.dataExports.request(user))
    if (!asked.ok) return data({ intent, result: null, error: asked.error.message }, { status: asked.error.status })
    const flash = await flashHeader({
      type: 'success',
      title: 'Data export requested',
      description: `We are preparing it and will e-mail ${user.email} a link, which works for ${DATA_EXPORT_LINK_DAYS} days.`,
    })
    return redirect('/settings#data-export', { headers: withCookies([flash]) })
  }

  const submission = parseWithZod(form, { schema: accountDeletionFormSchema })
  if (submission.status !== 'success') {
    return data({ intent, result: submission.reply({ hideFields: ['password', 'code'] }), error: null }, { status: 400 })
  }
  const outcome = await attempt(() => context.services.accountDeletion.request(user, submission.value, context.credential))
  if (!outcome.ok) {
    const refused = refusedSubmission((options) => submission.reply(options), outcome.error, ['password', 'code'])
    return data({ intent, ...refused }, { status: outcome.error.status })
  }
  if (outcome.value.confirmation === 'email') {
    const flash = await flashHeader({
      type: 'info',
      title: 'Check your e-mail',
      description: `We sent a link to ${outcome.value.sentTo}. Open it while signed in to confirm the deletion of your account.`,
    })
    return redirect('/settings#delete-account', { headers: withCookies([flash]) })
  }
  // Every session ended (this one too): the browser forgets its cookie and lands on the sign-in page.
  const cleared = await context.services.auth.logout(context.credential)
  const date = longDate(outcome.value.eraseAfter)
  const flash = await flashHeader({
    type: 'info',
    title: `Your account will be deleted on ${date}`,
    description: `You are signed out everywhere. Changed your mind? Sign in before ${date} and the deletion is cancelled.`,
  })
  return redirect('/auth', { headers: withCookies([...cleared, flash]) })
}
