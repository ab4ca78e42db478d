import { KeyRound, MonitorSmartphone, Pencil, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#app/components/ui/dialog.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'

export interface DeviceRow {
  id: string
  name: string
  /** 'Browser extension', 'Local runner'. */
  kindLabel: string
  version: string
  /** 'Never' until the device first uses its token; otherwise how long ago. */
  lastSeenLabel: string
  /** Past the workspace's plan (connected after its places were taken): refused until one is free. */
  pastPlan: boolean
  connectedLabel: string
  /** Whether it receives the vault values its runs type (docs/decisions/048); 'no key': paired before devices kept one. */
  vaultValues: 'allowed' | 'off' | 'no key'
}

/** 'Devices': the browsers and runners connected to this workspace as the member (docs/decisions/031). */
export function DevicesCard({
  devices,
  workspaceName,
  limit,
  mayAllowVaultValues,
}: {
  devices: DeviceRow[]
  workspaceName: string
  /** The member is an admin or the owner here: only they let their devices receive vault values. */
  mayAllowVaultValues: boolean
  /** What the workspace's plan says about devices ('Your plan connects up to 3 devices…'). */
  limit: string
}) {
  return (
    <Card id="devices" className="scroll-mt-20">
      <CardHeader>
        <CardTitle level={2}>Devices</CardTitle>
        <CardDescription>
          Browsers and local runners you connected to {workspaceName}. They run and report automations as you. {limit}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {devices.length === 0 ? (
          <div className="space-y-2 rounded-md border border-dashed p-4 text-sm">
            <p className="flex items-center gap-2 font-medium">
              <MonitorSmartphone aria-hidden="true" className="size-4" />
              No devices connected yet.
            </p>
            <p className="text-muted-foreground">
              To connect this browser,{' '}
              <Link to="/extension" className="text-primary underline underline-offset-4">
                install the Aether extension
              </Link>{' '}
              and choose &ldquo;Connect&rdquo; in its side panel: it shows a code and opens a page where you approve it. A local runner (
              <code className="font-mono text-xs">aether-runner pair</code>, see /extension) connects the same way. You can also type a
              device&rsquo;s code on{' '}
              <Link to="/connect" className="text-primary underline underline-offset-4">
                Connect a device
              </Link>
              .
            </p>
          </div>
        ) : (
          <ul aria-label="Your devices" className="divide-y rounded-md border">
            {devices.map((device) => (
              <li key={device.id} className="flex flex-wrap items-center justify-between gap-4 p-3">
                <div className="min-w-0 space-y-1">
                  <p className="truncate font-medium">{device.name}</p>
                  <p className="text-xs text-muted-foreground">
                    {device.kindLabel} · version {device.version}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Connected {device.connectedLabel} · Last seen {device.lastSeenLabel}
                  </p>
                  {device.pastPlan ? (
                    <p className="text-xs font-medium text-destructive">
                      Not working: past the plan&rsquo;s devices. Revoke another device, or upgrade, and it works again.
                    </p>
                  ) : null}
                  <VaultValuesLine device={device} mayAllow={mayAllowVaultValues} />
                </div>
                <div className="flex flex-wrap gap-2">
                  <VaultValuesAction device={device} mayAllow={mayAllowVaultValues} />
                  <RenameDevice device={device} />
                  <ConfirmAction
                    label={
                      <>
                        <Trash2 aria-hidden="true" />
                        Revoke
                      </>
                    }
                    triggerProps={{ variant: 'outline', size: 'sm', 'aria-label': `Revoke ${device.name}` }}
                    title={`Revoke "${device.name}"?`}
                    description="The device is signed out at its next request and stops running automations. Connect it again with a new code."
                    confirmLabel="Revoke Device"
                    fields={{ intent: 'revoke-device', id: device.id }}
                    destructive
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

function VaultValuesLine({ device, mayAllow }: { device: DeviceRow; mayAllow: boolean }) {
  const words =
    device.vaultValues === 'allowed'
      ? 'Vault values: allowed. Its runs type the values they name, on the secrets’ own sites, sealed to its key on the way.'
      : device.vaultValues === 'no key'
        ? 'Vault values: it was connected before devices kept a key for them. Revoke it and connect it again to allow them.'
        : mayAllow
          ? 'Vault values: not allowed. Its runs cannot sign in with the vault; cloud runs can.'
          : 'Vault values: not allowed. Only this workspace’s admins and owner let their devices receive them.'
  return <p className="text-xs text-muted-foreground">{words}</p>
}

/** Allow (after a confirmation saying what it means) or stop vault values on the device. */
function VaultValuesAction({ device, mayAllow }: { device: DeviceRow; mayAllow: boolean }) {
  if (device.vaultValues === 'allowed') {
    return (
      <Form method="post">
        <input type="hidden" name="intent" value="stop-vault-values" />
        <input type="hidden" name="id" value={device.id} />
        <Button type="submit" variant="outline" size="sm" aria-label={`Stop vault values on ${device.name}`}>
          <KeyRound aria-hidden="true" />
          Stop vault values
        </Button>
      </Form>
    )
  }
  if (device.vaultValues === 'no key' || !mayAllow) return null
  return (
    <ConfirmAction
      label={
        <>
          <KeyRound aria-hidden="true" />
          Allow vault values
        </>
      }
      triggerProps={{ variant: 'outline', size: 'sm', 'aria-label': `Allow vault values on ${device.name}` }}
      title={`Let "${device.name}" receive vault values?`}
      description="Its runs then type the vault values their steps name, only on each secret’s own sites, as cloud runs do. Each value is sent for one run, sealed to a key only this device holds, and every sending is in the workspace’s activity. Whoever uses this computer could read them: allow it only on a computer you trust."
      confirmLabel="Allow Vault Values"
      fields={{ intent: 'allow-vault-values', id: device.id }}
    />
  )
}

function RenameDevice({ device }: { device: DeviceRow }) {
  const [open, setOpen] = useState(false)
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('id') === device.id
  const inputId = `device-name-${device.id}`
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" size="sm" aria-label={`Rename ${device.name}`}>
          <Pencil aria-hidden="true" />
          Rename
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Rename device</DialogTitle>
          <DialogDescription>A name that tells this {device.kindLabel.toLowerCase()} apart from your others.</DialogDescription>
        </DialogHeader>
        <Form method="post" onSubmit={() => setOpen(false)} className="space-y-4">
          <input type="hidden" name="intent" value="rename-device" />
          <input type="hidden" name="id" value={device.id} />
          <div className="space-y-2">
            <Label htmlFor={inputId}>Name</Label>
            <Input id={inputId} name="name" defaultValue={device.name} required maxLength={60} autoComplete="off" />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Please wait' : 'Save'}
            </Button>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  )
}
