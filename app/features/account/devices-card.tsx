import { MonitorSmartphone, Pencil, Trash2 } from 'lucide-react'
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
}

/** 'Devices': the browsers and runners connected to this workspace as the member (docs/decisions/031). */
export function DevicesCard({
  devices,
  workspaceName,
  limit,
}: {
  devices: DeviceRow[]
  workspaceName: string
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
                </div>
                <div className="flex gap-2">
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
