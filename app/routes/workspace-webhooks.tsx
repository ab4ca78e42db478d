import { useActionData, useLoaderData } from 'react-router'
import type { Route } from './+types/workspace-webhooks'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { requireMember } from '#app/lib/guards.server.ts'
import { privatePageMeta } from '#app/lib/seo.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { EndpointCard, NewEndpointCard, NewSecretNotice } from '#app/features/webhooks/webhook-endpoints.tsx'
import { webhookAction, type WebhookActionResult } from '#app/features/webhooks/webhook-actions.server.ts'
import { loadWebhooks } from '#app/features/webhooks/webhooks-view.server.ts'

export function loader({ context }: Route.LoaderArgs) {
  return loadWebhooks(context, requireMember(context))
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireMember(context)
  return webhookAction(context, user, await request.formData())
}

export const meta = privatePageMeta('Webhooks')

export default function WebhooksPage() {
  const view = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>() as WebhookActionResult | undefined
  useActionToast(result)
  const room = view.endpoints.length < view.allowed
  return (
    <main className="max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
        <p className="text-sm text-muted-foreground">
          Signed messages to your systems when runs finish, automations change or credits run low (Standard Webhooks: verify them with its
          libraries and the endpoint&apos;s secret).
        </p>
      </div>
      {!view.canManage ? (
        <Card>
          <CardHeader>
            <CardTitle level={2}>Owners and admins only</CardTitle>
            <CardDescription>Ask an owner or admin of this workspace to add or change its webhooks.</CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <>
          {result?.ok && result.secret ? (
            <NewSecretNotice key={result.secret.value} url={result.secret.url} value={result.secret.value} />
          ) : null}
          {view.allowed === 0 ? (
            <Card>
              <CardContent className="pt-6 text-sm">
                Webhooks are not part of the {view.plan} plan. See the plans on the Billing page to add them.
              </CardContent>
            </Card>
          ) : (
            <>
              <p className="text-sm text-muted-foreground">
                {view.endpoints.length} of {view.allowed} endpoints on the {view.plan} plan.
              </p>
              {room ? (
                <NewEndpointCard room={room} field={result && !result.ok && result.intent === 'create' ? result.field : undefined} />
              ) : null}
            </>
          )}
          {view.endpoints.map((endpoint) => (
            <EndpointCard key={endpoint.id} endpoint={endpoint} />
          ))}
        </>
      )}
    </main>
  )
}
