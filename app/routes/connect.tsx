import { useState } from 'react'
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router'
import type { Route } from './+types/connect'
import { CenteredCard } from '#app/components/layout/centered-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { connectableWorkspaces, type ConnectableWorkspace } from '#app/features/devices/connect-workspaces.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { requireMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { DEVICE_KIND_NAMES } from '#common/devices.ts'
import type { PairingPreview } from '#server/features/devices/pairing.service.ts'

// "Connect this browser" (docs/decisions/031): the page a device's verification address opens, or
// where the member types the code the device shows. Signed in, they see what asks to connect and
// approve it for one of their workspaces, or deny it. A visitor signs in first and comes back.
// The first member to open a code makes the pairing their workspace's: nobody else sees or answers it.

const codeOf = (request: Request) => (new URL(request.url).searchParams.get('code') ?? '').trim().slice(0, 40)

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.user) {
    const url = new URL(request.url)
    throw redirect(`/auth?returnTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`)
  }
  const user = context.user
  const code = codeOf(request)
  const found = code ? await attempt(() => context.services.pairings.preview(code, user)) : null
  const workspaces = await connectableWorkspaces(context.services, user)
  return {
    code,
    pairing: found?.ok ? found.value : null,
    lookupError: found && !found.ok ? found.error.message : null,
    workspaces,
    chosen: workspaces.find((workspace) => workspace.id === user.workspace?.id)?.id ?? workspaces[0]?.id ?? null,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  const form = await request.formData()
  const code = String(form.get('code') ?? '').slice(0, 40)
  const pairings = context.services.pairings
  if (form.get('intent') === 'deny') {
    const denied = await attempt(() => pairings.deny(code, user, context.clientIp))
    if (!denied.ok) return data({ outcome: null, error: denied.error.message }, { status: denied.error.status })
    return { outcome: { kind: 'denied' as const, name: denied.value.name, workspace: null }, error: null }
  }
  const workspaceId = String(form.get('workspaceId') ?? '').slice(0, 100)
  const approved = await attempt(() => pairings.approve(code, user, workspaceId, context.clientIp))
  if (!approved.ok) return data({ outcome: null, error: approved.error.message }, { status: approved.error.status })
  return { outcome: { kind: 'approved' as const, name: approved.value.name, workspace: approved.value.workspace.name }, error: null }
}

export function headers() {
  return { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' }
}

export const meta = privatePageMeta('Connect a device')

const WHY_NOT: Record<Exclude<PairingPreview['status'], 'pending'>, string> = {
  expired: 'This code has expired. Start again on the device for a new one.',
  approved: 'This code was already used. If the device is not connected, start again on it for a new code.',
  denied: 'This device was denied. Start again on the device if that was a mistake.',
}

export default function ConnectPage() {
  const { code, pairing, lookupError, workspaces, chosen } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  const [target, setTarget] = useState(chosen)
  const chosenWorkspace = workspaces.find((workspace) => workspace.id === target)
  const full = chosenWorkspace?.full ? chosenWorkspace : null

  if (answer?.outcome) {
    const { outcome } = answer
    return (
      <CenteredCard
        title={outcome.kind === 'approved' ? 'Device connected' : 'Device denied'}
        description={
          outcome.kind === 'approved'
            ? `${outcome.name} is connected to ${outcome.workspace}. It finishes connecting by itself in a few seconds: you can close this page.`
            : `${outcome.name} was not connected. It stops asking.`
        }
      >
        <Button asChild className="w-full">
          <Link to="/settings#devices">See your devices</Link>
        </Button>
      </CenteredCard>
    )
  }

  if (!code || (!pairing && !lookupError)) {
    return (
      <CenteredCard
        title="Connect a device"
        description="Enter the code your browser extension or local runner shows, then approve it here."
      >
        {code ? (
          <p role="alert" className="text-sm text-destructive">
            No device is waiting with the code {code}. Check the code the device shows, or start again on it.
          </p>
        ) : null}
        <CodeForm />
      </CenteredCard>
    )
  }

  if (!pairing) {
    return (
      <CenteredCard title="Connect a device" description="The code could not be checked.">
        <p role="alert" className="text-sm text-destructive">
          {lookupError}
        </p>
        <CodeForm />
      </CenteredCard>
    )
  }

  if (pairing.status !== 'pending') {
    return (
      <CenteredCard title="This code does not work" description={WHY_NOT[pairing.status]}>
        <CodeForm />
      </CenteredCard>
    )
  }

  return (
    <CenteredCard
      title="Connect a device"
      description="Only connect a device you are setting up now. It will run and report automations as you."
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md border p-3 text-sm">
        <dt className="text-muted-foreground">Name</dt>
        <dd className="font-medium break-words">{pairing.name}</dd>
        <dt className="text-muted-foreground">Kind</dt>
        <dd>{DEVICE_KIND_NAMES[pairing.kind]}</dd>
        <dt className="text-muted-foreground">Version</dt>
        <dd className="break-words">{pairing.version}</dd>
        <dt className="text-muted-foreground">Code</dt>
        <dd className="font-mono tracking-wider">{pairing.userCode}</dd>
      </dl>
      <p className="text-sm text-muted-foreground">Check that the code matches the one on the device.</p>
      {answer?.error ? (
        <p role="alert" className="text-sm text-destructive">
          {answer.error}
        </p>
      ) : null}
      <Form method="post" className="space-y-4">
        <input type="hidden" name="code" value={pairing.userCode} />
        <WorkspaceChoice workspaces={workspaces} chosen={target} onChoose={setTarget} />
        {full ? (
          <p role="note" className="text-sm">
            All of {full.name}&rsquo;s devices are in use ({full.devicesLabel}): disconnect one in{' '}
            <Link to="/settings#devices" className="font-medium underline underline-offset-4">
              Settings → Devices
            </Link>{' '}
            first, or choose another workspace. Deny tells the device at once that it was not connected.
          </p>
        ) : null}
        <div className="flex gap-2">
          <Button
            type="submit"
            name="intent"
            value="approve"
            className="flex-1"
            disabled={busy || workspaces.length === 0 || full !== null}
          >
            Connect
          </Button>
          <Button type="submit" name="intent" value="deny" variant="outline" className="flex-1" disabled={busy}>
            Deny
          </Button>
        </div>
      </Form>
    </CenteredCard>
  )
}

function WorkspaceChoice({
  workspaces,
  chosen,
  onChoose,
}: {
  workspaces: ConnectableWorkspace[]
  chosen: string | null
  onChoose: (id: string) => void
}) {
  if (workspaces.length === 0) {
    return <p className="text-sm">You are a viewer in every workspace you belong to: only members and above connect devices.</p>
  }
  return (
    <div className="space-y-2">
      <Label htmlFor="workspaceId">Workspace</Label>
      <Select id="workspaceId" name="workspaceId" value={chosen ?? undefined} onChange={(event) => onChoose(event.currentTarget.value)}>
        {workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name} ({workspace.devicesLabel})
          </option>
        ))}
      </Select>
      <p className="text-xs text-muted-foreground">The device works in this workspace only, with your role there.</p>
    </div>
  )
}

/** Typing the code by hand: a GET form, so it works before the page's script has loaded. */
function CodeForm() {
  return (
    <Form method="get" className="space-y-2">
      <Label htmlFor="code">Code from the device</Label>
      <div className="flex gap-2">
        <Input id="code" name="code" placeholder="ABCD-2345" autoComplete="off" autoCapitalize="characters" required maxLength={20} />
        <Button type="submit">Continue</Button>
      </div>
    </Form>
  )
}
