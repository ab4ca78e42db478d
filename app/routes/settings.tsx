import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { data, redirect, useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/settings'
import { AccountSettingsForm } from '#app/features/account/account-settings-form.tsx'
import { accountDataAction, accountDataView, isAccountDataIntent } from '#app/features/account/account-data-actions.server.ts'
import { DataExportCard } from '#app/features/account/data-export-card.tsx'
import { DeleteAccountCard } from '#app/features/account/delete-account-card.tsx'
import { ApiKeysCard } from '#app/features/account/api-keys-card.tsx'
import { deviceAction, isDeviceIntent } from '#app/features/account/device-actions.server.ts'
import { settingsView } from '#app/features/account/settings-view.server.ts'
import { DevicesCard } from '#app/features/account/devices-card.tsx'
import { SecurityCard } from '#app/features/account/security-card.tsx'
import { PasskeysCard } from '#app/features/account/passkeys-card.tsx'
import { TwoFactorCard } from '#app/features/account/two-factor-card.tsx'
import { twoFactorAction, type TwoFactorAnswer } from '#app/features/account/two-factor-actions.server.ts'
import { isTwoFactorIntent } from '#app/features/account/two-factor-intents.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { refusedSubmission } from '#app/lib/refused-submission.server.ts'
import { flashHeader, type Flash } from '#app/lib/flash.server.ts'
import { pageCaller, requireMember } from '#app/lib/guards.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { toast } from '#app/lib/toast.ts'
import { accountSettingsSchema, passwordChangeFormSchema } from '#common/account.ts'
import { apiKeyCreateSchema } from '#common/api-keys.ts'
import { privatePageMeta } from '#app/lib/seo.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireMember(context)
  const [view, accountData] = await Promise.all([settingsView(context, user), accountDataView(context, user, request)])
  return { ...view, ...accountData }
}

/** The error toasts of each form (spec section 8). */
const ERROR_TITLES = {
  account: 'Error updating settings',
  'reset-password': 'Error sending reset email',
  'change-password': 'Error changing password',
  'create-api-key': 'Error creating API key',
  'revoke-api-key': 'Error revoking API key',
  'rename-device': 'Error renaming device',
  'revoke-device': 'Error revoking device',
  'allow-vault-values': 'Error allowing vault values',
  'stop-vault-values': 'Error stopping vault values',
  'request-data-export': 'Error requesting your data',
  'delete-account': 'Error deleting your account',
} as const
type Intent = keyof typeof ERROR_TITLES

/** What a password change ended besides the other sessions: the keys and devices it revoked (docs/decisions/015). */
function passwordChangedDescription(keys: number, devices: number): string {
  const ended = [
    'Your other sessions were signed out',
    keys === 0 ? '' : keys === 1 ? 'your API key was revoked' : `your ${keys} API keys were revoked`,
    devices === 0 ? '' : devices === 1 ? 'your connected device was disconnected' : `your ${devices} connected devices were disconnected`,
  ].filter(Boolean)
  return `${ended.slice(0, -1).join(', ')}${ended.length > 1 ? ' and ' : ''}${ended.at(-1)}.`
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const formData = await request.formData()
  const intentName = String(formData.get('intent'))
  if (isTwoFactorIntent(intentName)) return twoFactorAction(context, user, intentName, formData)
  if (isDeviceIntent(intentName)) return deviceAction(context, user, intentName, formData)
  if (isAccountDataIntent(intentName)) return accountDataAction(context, user, intentName, formData)
  const intent = intentName as Intent
  const done = async (flash: Flash, cookies: string[] = []) =>
    redirect('/settings', { headers: withCookies([...cookies, await flashHeader(flash)]) })

  if (intent === 'account' || intent === 'change-password') {
    const schema = intent === 'account' ? accountSettingsSchema : passwordChangeFormSchema
    const submission = parseWithZod(formData, { schema })
    if (submission.status !== 'success') {
      return data({ intent, result: submission.reply({ hideFields: ['currentPassword', 'newPassword'] }), error: null }, { status: 400 })
    }
    const outcome = await attempt(async () => {
      if (intent === 'change-password') {
        const { currentPassword, newPassword, revokeApiKeys } = submission.value as {
          currentPassword: string
          newPassword: string
          revokeApiKeys?: boolean
        }
        const changed = await context.services.auth.changePassword(
          user.id,
          { currentPassword, newPassword, revokeApiKeys: revokeApiKeys === true },
          context.credential,
        )
        return { cookies: changed.setCookies, revokedApiKeys: changed.revokedApiKeys, revokedDevices: changed.revokedDevices }
      }
      const { email, fullName, timeZone, phone } = submission.value as {
        email: string
        fullName: string
        timeZone: string | null
        phone: string | null
      }
      // The e-mail change first: if it is refused (limit, same address), nothing is half-saved.
      if (email !== user.email) {
        await context.services.account.requestEmailChange(user, email)
      }
      await context.services.auth.updateProfile(user.id, { fullName, timeZone, phone })
      return { cookies: [], newEmail: email !== user.email ? email : null }
    })
    if (!outcome.ok) {
      const refused = refusedSubmission((options) => submission.reply(options), outcome.error, ['currentPassword', 'newPassword'])
      return data({ intent, ...refused }, { status: outcome.error.status })
    }
    if (intent === 'change-password') {
      const changed = 'revokedApiKeys' in outcome.value ? outcome.value : { revokedApiKeys: 0, revokedDevices: 0 }
      return done(
        {
          type: 'success',
          title: 'Password changed',
          description: passwordChangedDescription(changed.revokedApiKeys ?? 0, changed.revokedDevices ?? 0),
        },
        outcome.value.cookies,
      )
    }
    const newEmail = 'newEmail' in outcome.value ? outcome.value.newEmail : null
    return done({
      type: 'success',
      title: 'Settings updated',
      description: newEmail ? `We sent a confirmation link to ${newEmail}. Your e-mail address changes when you follow it.` : undefined,
    })
  }

  if (intent === 'reset-password') {
    const outcome = await attempt(() => context.services.account.sendOwnPasswordReset(user.email, context.clientIp))
    if (!outcome.ok) return data({ intent, result: null, error: outcome.error.message }, { status: outcome.error.status })
    return done({
      type: 'success',
      title: 'Password reset email sent',
      description: `Check ${user.email}: the link works once, for 1 hour.`,
    })
  }
  if (intent === 'create-api-key') {
    const submission = parseWithZod(formData, { schema: apiKeyCreateSchema })
    if (submission.status !== 'success') return data({ intent, result: submission.reply(), error: null, createdKey: null }, { status: 400 })
    const { name, scopes } = submission.value
    const outcome = await attempt(() => context.services.apiKeys.create(pageCaller(user), name, scopes))
    if (!outcome.ok) {
      const error = outcome.error.message
      return data({ intent, result: submission.reply({ formErrors: [error] }), error, createdKey: null }, { status: outcome.error.status })
    }
    // Answered, not redirected: this answer is the only place the whole key ever appears.
    return data(
      { intent, result: submission.reply({ resetForm: true }), error: null, createdKey: { name, key: outcome.value.key } },
      { headers: { 'Cache-Control': 'no-store' } },
    )
  }

  if (intent === 'revoke-api-key') {
    const outcome = await attempt(() => context.services.apiKeys.revoke(user, String(formData.get('id') ?? '')))
    if (!outcome.ok) return data({ intent, result: null, error: outcome.error.message }, { status: outcome.error.status })
    return done({ type: 'success', title: 'API key revoked', description: `"${outcome.value.name}" no longer works.` })
  }
  throw data('Unknown action', { status: 400 })
}

export const meta = privatePageMeta('Account Settings')

function isTwoFactorAnswer(answer: object): answer is TwoFactorAnswer {
  return 'intent' in answer && typeof answer.intent === 'string' && isTwoFactorIntent(answer.intent)
}

export default function SettingsPage() {
  const {
    email,
    fullName,
    timeZone,
    phone,
    apiKeys,
    canGrantAdmin,
    formKey,
    twoFactor,
    passkeys,
    blockedWorkspace,
    devices,
    workspaceName,
    dataExport,
    deletion,
  } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const twoFactorAnswer = answer && isTwoFactorAnswer(answer) ? answer : undefined
  const actionData = answer && !isTwoFactorAnswer(answer) ? answer : undefined
  const createdKey = actionData?.intent === 'create-api-key' ? actionData.createdKey : null
  useEffect(() => {
    if (actionData?.error) toast.error(ERROR_TITLES[actionData.intent], { description: actionData.error })
    if (actionData?.intent === 'create-api-key' && actionData.createdKey) {
      toast.success('API key created', { description: "Copy it now: you won't see it again." })
    }
  }, [actionData])
  const resultFor = (intent: Intent) => (actionData?.intent === intent ? (actionData.result ?? undefined) : undefined)

  return (
    <main className="max-w-2xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      {blockedWorkspace ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
          {blockedWorkspace} requires two-factor sign-in. Turn it on below to work in it again.
        </p>
      ) : null}
      <AccountSettingsForm
        key={`account-${formKey}`}
        email={email}
        fullName={fullName}
        timeZone={timeZone}
        phone={phone}
        lastResult={resultFor('account')}
      />
      <SecurityCard key={`security-${formKey}`} lastResult={resultFor('change-password')} />
      <TwoFactorCard state={twoFactor} answer={twoFactorAnswer} />
      <PasskeysCard passkeys={passkeys} error={twoFactorAnswer?.intent === 'add-passkey' ? twoFactorAnswer.error : null} />
      <ApiKeysCard keys={apiKeys} createdKey={createdKey} lastResult={resultFor('create-api-key')} canGrantAdmin={canGrantAdmin} />
      {devices ? (
        <DevicesCard
          devices={devices.devices}
          limit={devices.limit}
          workspaceName={workspaceName}
          mayAllowVaultValues={devices.mayAllowVaultValues}
        />
      ) : null}
      <DataExportCard row={dataExport} error={actionData?.intent === 'request-data-export' ? actionData.error : null} />
      <DeleteAccountCard key={`delete-${formKey}`} state={deletion} lastResult={resultFor('delete-account')} />
    </main>
  )
}
