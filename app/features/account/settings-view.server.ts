import { format } from 'date-fns'
import type { AppLoadContext } from 'react-router'
import { pageCaller } from '#app/lib/guards.server.ts'
import { lacksRequiredTwoFactor } from '#common/two-factor-requirement.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { ApiKeyRow } from './api-keys-card.tsx'
import { devicesView } from './device-actions.server.ts'

/**
 * What Settings shows: the account, its API keys and devices in the current workspace, two-factor
 * sign-in and passkeys. In a team that requires two-factor sign-in, a member without it comes
 * here to set it up; the workspace's API keys and devices stay out of reach until then
 * (docs/decisions/023).
 */
export async function settingsView(context: AppLoadContext, user: SessionUser) {
  const blocked = lacksRequiredTwoFactor(user)
  const [keys, twoFactor, passkeys, devices] = await Promise.all([
    blocked ? Promise.resolve([]) : context.services.apiKeys.list(pageCaller(user)),
    context.services.twoFactor.status(user.id),
    context.services.passkeys.list(user.id),
    blocked ? Promise.resolve(null) : devicesView(context, user),
  ])
  const apiKeys: ApiKeyRow[] = keys.map((key) => ({
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdLabel: format(key.createdAt, 'MMM d, yyyy'),
    lastUsedLabel: key.lastUsedAt ? format(key.lastUsedAt, 'MMM d, yyyy') : 'Never',
    revoked: key.revokedAt !== null,
    scopes: key.scopes,
  }))
  // A new key after every successful save remounts the forms with what is stored.
  return {
    email: user.email,
    fullName: user.profile.fullName ?? '',
    // Where new schedules start and run times show; null: the browser's (docs/decisions/036).
    timeZone: user.profile.timeZone,
    phone: user.profile.phone,
    apiKeys,
    canGrantAdmin: user.profile.role === 'admin',
    formKey: Date.now(),
    twoFactor,
    passkeys: passkeys.map((passkey) => ({
      id: passkey.id,
      name: passkey.name,
      createdLabel: passkey.createdAt ? format(passkey.createdAt, 'MMM d, yyyy') : 'earlier',
      synced: passkey.backedUp,
    })),
    blockedWorkspace: blocked && user.workspace ? user.workspace.name : null,
    devices,
    workspaceName: user.workspace?.name ?? 'your workspace',
  }
}
