import { formatDistanceToNowStrict, format } from 'date-fns'
import { data, redirect, type AppLoadContext } from 'react-router'
import { pageCaller } from '#app/lib/guards.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { withCookies } from '#app/lib/response-headers.ts'
import { DEVICE_KIND_NAMES, deviceRenameSchema } from '#common/devices.ts'
import { hasRole } from '#common/workspaces.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { DeviceRow } from './devices-card.tsx'

export const DEVICE_INTENTS = ['rename-device', 'revoke-device', 'allow-vault-values', 'stop-vault-values'] as const
export type DeviceIntent = (typeof DEVICE_INTENTS)[number]
export const isDeviceIntent = (intent: string): intent is DeviceIntent => (DEVICE_INTENTS as readonly string[]).includes(intent)

/** Settings -> Devices: the member's devices in their current workspace, and what the plan allows (docs/decisions/031). */
export async function devicesView(
  context: AppLoadContext,
  user: SessionUser,
): Promise<{ devices: DeviceRow[]; limit: string; mayAllowVaultValues: boolean }> {
  const caller = pageCaller(user)
  const [devices, usage, pastPlan] = await Promise.all([
    context.services.devices.list(caller),
    context.services.pairings.usage(caller.workspace.id),
    context.services.devices.pastPlanIds(caller.workspace.id),
  ])
  const limit =
    usage.limit === null
      ? 'This workspace’s plan connects any number of devices.'
      : `This workspace’s plan connects up to ${usage.limit} device${usage.limit === 1 ? '' : 's'} (${usage.taken} in use, yours and others’).`
  return {
    limit,
    mayAllowVaultValues: hasRole(caller.workspace.role, 'admin'),
    devices: devices.map((device) => ({
      id: device.id,
      name: device.name,
      kindLabel: DEVICE_KIND_NAMES[device.kind],
      version: device.version,
      connectedLabel: format(device.createdAt, 'MMM d, yyyy'),
      lastSeenLabel: device.lastSeenAt ? `${formatDistanceToNowStrict(device.lastSeenAt)} ago` : 'never',
      pastPlan: pastPlan.has(device.id),
      vaultValues: device.vaultValues ? 'allowed' : device.holdsKey ? 'off' : 'no key',
    })),
  }
}

/** Rename, Revoke and vault values on Settings -> Devices: the device services, as the API's PATCH and DELETE call them. */
export async function deviceAction(context: AppLoadContext, user: SessionUser, intent: DeviceIntent, form: FormData) {
  const caller = pageCaller(user)
  const id = String(form.get('id') ?? '').slice(0, 100)
  const refused = (error: string, status: number) => data({ intent, result: null, error }, { status })
  if (intent === 'rename-device') {
    const parsed = deviceRenameSchema.safeParse({ name: form.get('name') ?? '' })
    if (!parsed.success) return refused(parsed.error.issues[0]?.message ?? 'Check the name.', 400)
    const renamed = await attempt(() => context.services.devices.rename(caller, id, parsed.data.name))
    if (!renamed.ok) return refused(renamed.error.message, renamed.error.status)
    const flash = await flashHeader({ type: 'success', title: 'Device renamed', description: `It is now "${renamed.value.name}".` })
    return redirect('/settings#devices', { headers: withCookies([flash]) })
  }
  if (intent === 'allow-vault-values' || intent === 'stop-vault-values') {
    const allowed = intent === 'allow-vault-values'
    const changed = await attempt(() => context.services.devices.allowVaultValues(caller, id, allowed))
    if (!changed.ok) return refused(changed.error.message, changed.error.status)
    const flash = await flashHeader(
      allowed
        ? {
            type: 'success',
            title: 'Vault values allowed',
            description: `Runs on "${changed.value.name}" now type the vault values they name.`,
          }
        : { type: 'success', title: 'Vault values stopped', description: `"${changed.value.name}" no longer receives vault values.` },
    )
    return redirect('/settings#devices', { headers: withCookies([flash]) })
  }
  const revoked = await attempt(() => context.services.devices.revoke(caller, id))
  if (!revoked.ok) return refused(revoked.error.message, revoked.error.status)
  const flash = await flashHeader({
    type: 'success',
    title: 'Device revoked',
    description: `"${revoked.value.name}" is signed out and no longer runs automations.`,
  })
  return redirect('/settings#devices', { headers: withCookies([flash]) })
}
