import { Power, RefreshCw, Send, Trash2, Webhook } from 'lucide-react'
import { Form, useNavigation } from 'react-router'
import { ConfirmAction } from '#app/components/confirm-action.tsx'
import { CopyButton } from '#app/components/copy-button.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { CREDITS_LOW_THRESHOLD, WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, WEBHOOK_MAX_ATTEMPTS } from '#common/webhooks.ts'
import type { EndpointView } from './webhooks-view.server.ts'

/** "Add endpoint": URL, description and the events it receives; the answer shows the secret once. */
export function NewEndpointCard({ room, field }: { room: boolean; field?: string }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create'
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Add an endpoint</CardTitle>
        <CardDescription>
          We POST a signed JSON message to this URL when the events you choose happen. It must be a public address.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="create" />
          <div className="space-y-1.5">
            <Label htmlFor="webhook-url">Endpoint URL</Label>
            <Input
              id="webhook-url"
              name="url"
              type="url"
              required
              placeholder="https://example.com/webhooks/aether"
              aria-invalid={field === 'url' || undefined}
              autoComplete="off"
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="webhook-description">Description</Label>
            <Input id="webhook-description" name="description" maxLength={200} placeholder="e.g. Our order system" autoComplete="off" />
          </div>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">Events</legend>
            {WEBHOOK_EVENTS.map((event) => (
              <div key={event} className="flex items-start gap-2">
                <input
                  id={`event-${event}`}
                  type="checkbox"
                  name="events"
                  value={event}
                  defaultChecked={event.startsWith('run.')}
                  className="mt-0.5 size-4 accent-primary"
                />
                <Label htmlFor={`event-${event}`} className="font-normal">
                  <span className="font-mono text-xs">{event}</span> · {WEBHOOK_EVENT_LABELS[event]}
                  {event === 'credits.low' ? ` (fewer than ${CREDITS_LOW_THRESHOLD} credits)` : ''}
                </Label>
              </div>
            ))}
          </fieldset>
          <Button type="submit" disabled={busy || !room}>
            <Webhook aria-hidden="true" />
            {busy ? 'Adding...' : 'Add Endpoint'}
          </Button>
        </Form>
      </CardContent>
    </Card>
  )
}

/** The secret just made (a new endpoint or a rotation): only the action's answer carries it. */
export function NewSecretNotice({ url, value }: { url: string; value: string }) {
  return (
    <div role="status" className="space-y-2 rounded-md border border-primary/40 bg-primary/5 p-4">
      <p className="text-sm font-medium">Signing secret for {url}</p>
      <p className="text-sm text-muted-foreground">
        Copy it now and keep it with your receiver. You won&apos;t see it again; rotate it to get a new one.
      </p>
      <div className="flex gap-2">
        <Input
          readOnly
          value={value}
          aria-label="Signing secret"
          className="font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={value} what="Secret" />
      </div>
    </div>
  )
}

function PostButton({
  fields,
  label,
  icon,
  variant = 'outline',
}: {
  fields: Record<string, string>
  label: string
  icon: React.ReactNode
  variant?: 'outline' | 'default'
}) {
  const navigation = useNavigation()
  const busy =
    navigation.state === 'submitting' && Object.entries(fields).every(([name, value]) => navigation.formData?.get(name) === value)
  return (
    <Form method="post">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" size="sm" variant={variant} disabled={busy}>
        {icon}
        {busy ? `${label}...` : label}
      </Button>
    </Form>
  )
}

/** One endpoint: its events and state, its actions, and its delivery log. */
export function EndpointCard({ endpoint }: { endpoint: EndpointView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2} className="flex flex-wrap items-center gap-2 break-all">
          {endpoint.url}
          {endpoint.enabled ? <Badge variant="secondary">On</Badge> : <Badge variant="outline">Off</Badge>}
        </CardTitle>
        <CardDescription>
          {endpoint.description ? `${endpoint.description} · ` : ''}
          {endpoint.events.join(', ')}
        </CardDescription>
        {endpoint.disabledReason ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {endpoint.disabledReason}. Fix the receiver, then turn it on again.
          </p>
        ) : null}
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap gap-2">
          <PostButton fields={{ intent: 'test', endpointId: endpoint.id }} label="Send test event" icon={<Send aria-hidden="true" />} />
          <PostButton
            fields={{ intent: 'toggle', endpointId: endpoint.id, enabled: String(!endpoint.enabled) }}
            label={endpoint.enabled ? 'Turn off' : 'Turn on'}
            icon={<Power aria-hidden="true" />}
          />
          <ConfirmAction
            label={
              <>
                <RefreshCw aria-hidden="true" />
                Rotate secret
              </>
            }
            triggerProps={{ variant: 'outline', size: 'sm', 'aria-label': `Rotate the secret of ${endpoint.url}` }}
            title="Rotate the signing secret?"
            description="A new secret signs every message from now on; your receiver must use it at once."
            confirmLabel="Rotate Secret"
            fields={{ intent: 'rotate', endpointId: endpoint.id }}
          />
          <ConfirmAction
            label={
              <>
                <Trash2 aria-hidden="true" />
                Delete
              </>
            }
            triggerProps={{ variant: 'outline', size: 'sm', 'aria-label': `Delete ${endpoint.url}` }}
            title="Delete this endpoint?"
            description={`Nothing more is sent to ${endpoint.url}, and its delivery log is deleted. This cannot be undone.`}
            confirmLabel="Delete Endpoint"
            fields={{ intent: 'delete', endpointId: endpoint.id }}
            destructive
          />
        </div>
        <DeliveryLog endpoint={endpoint} />
      </CardContent>
    </Card>
  )
}

function DeliveryLog({ endpoint }: { endpoint: EndpointView }) {
  if (endpoint.deliveries.length === 0) return <p className="text-sm text-muted-foreground">Nothing has been sent here yet.</p>
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" aria-label={`Deliveries to ${endpoint.url}`}>
        <caption className="pb-2 text-left text-xs text-muted-foreground">
          Delivery log: the newest {endpoint.deliveries.length} of {endpoint.deliveryCount}. Failed attempts are retried up to{' '}
          {WEBHOOK_MAX_ATTEMPTS} times, waiting longer each time.
        </caption>
        <thead>
          <tr className="border-b text-left text-xs text-muted-foreground">
            <th className="py-1 pr-3 font-medium">Event</th>
            <th className="py-1 pr-3 font-medium">Status</th>
            <th className="py-1 pr-3 font-medium">Response time</th>
            <th className="py-1 pr-3 font-medium">Attempt</th>
            <th className="py-1 pr-3 font-medium">Time</th>
            <th className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {endpoint.deliveries.map((delivery) =>
            (delivery.attempts.length ? delivery.attempts : [null]).map((attempt, index) => (
              <tr key={`${delivery.id}-${attempt?.attempt ?? 0}`} className="border-b align-top last:border-0">
                <td className="py-1.5 pr-3 font-mono text-xs">{index === 0 ? delivery.eventType : ''}</td>
                <td className="py-1.5 pr-3">
                  {attempt ? (
                    <span className={attempt.ok ? '' : 'text-red-700 dark:text-red-300'} title={attempt.error ?? undefined}>
                      {attempt.statusCode ?? 'No answer'}
                    </span>
                  ) : (
                    <span className="text-muted-foreground">Queued</span>
                  )}
                </td>
                <td className="py-1.5 pr-3">{attempt ? `${attempt.responseMs} ms` : ''}</td>
                <td className="py-1.5 pr-3">{attempt?.attempt ?? ''}</td>
                <td className="py-1.5 pr-3 text-xs text-muted-foreground">
                  {attempt ? (
                    <time dateTime={attempt.time.at}>{attempt.time.label}</time>
                  ) : (
                    <time dateTime={delivery.created.at}>{delivery.created.label}</time>
                  )}
                  {index === 0 && delivery.nextAttempt ? <span className="block">Next try {delivery.nextAttempt.label}</span> : null}
                </td>
                <td className="py-1.5 text-right">
                  {index === 0 && delivery.status !== 'pending' ? (
                    <PostButton
                      fields={{ intent: 'redeliver', endpointId: endpoint.id, deliveryId: delivery.id }}
                      label="Redeliver"
                      icon={<RefreshCw aria-hidden="true" />}
                    />
                  ) : null}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  )
}
