import { data, type AppLoadContext } from 'react-router'
import { actionResult, type ActionResult } from '#app/lib/action-result.server.ts'
import { attempt } from '#app/lib/attempt.server.ts'
import { pageCaller } from '#app/lib/guards.server.ts'
import { webhookCreateSchema } from '#common/webhooks.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'

/** What the page's actions answer: a toast, and once (create, rotate) the endpoint's new secret. */
export type WebhookActionResult = ActionResult & { secret?: { endpointId: string; url: string; value: string } }

const id = (form: FormData, name: string) => String(form.get(name) ?? '').slice(0, 100)

/** The Webhooks page's forms, by intent. The service checks the caller's role in the workspace. */
export async function webhookAction(context: AppLoadContext, user: SessionUser, form: FormData) {
  const caller = pageCaller(user)
  const webhooks = context.services.outgoingWebhooks
  const intent = String(form.get('intent'))
  const endpointId = id(form, 'endpointId')

  if (intent === 'create') {
    const parsed = webhookCreateSchema.safeParse({
      url: form.get('url') ?? '',
      description: form.get('description') ?? '',
      events: form.getAll('events').map(String),
    })
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      return data<WebhookActionResult>(
        {
          ok: false,
          intent,
          field: issue?.path.join('.'),
          error: { title: 'Could not add the endpoint', description: issue?.message ?? 'Check the form.' },
        },
        { status: 400 },
      )
    }
    const outcome = await attempt(() => webhooks.create(caller, parsed.data))
    if (!outcome.ok) {
      const issue = outcome.error.issues?.[0]
      return data<WebhookActionResult>(
        {
          ok: false,
          intent,
          field: issue?.path,
          code: outcome.error.code,
          error: { title: 'Could not add the endpoint', description: outcome.error.message },
        },
        { status: outcome.error.status },
      )
    }
    const { endpoint, secret } = outcome.value
    // Answered, not redirected: this answer is the only place the whole secret ever appears.
    return data<WebhookActionResult>({
      ok: true,
      intent,
      toast: { title: 'Endpoint added', description: 'Copy its signing secret now: it is shown once.' },
      secret: { endpointId: endpoint.id, url: endpoint.url, value: secret },
    })
  }
  if (intent === 'rotate') {
    const outcome = await attempt(() => webhooks.rotateSecret(caller, endpointId))
    if (!outcome.ok) {
      return data<WebhookActionResult>(
        { ok: false, intent, error: { title: 'Could not rotate the secret', description: outcome.error.message } },
        { status: outcome.error.status },
      )
    }
    return data<WebhookActionResult>({
      ok: true,
      intent,
      toast: { title: 'Secret rotated', description: 'The old secret no longer signs. Copy the new one now: it is shown once.' },
      secret: { endpointId: outcome.value.endpoint.id, url: outcome.value.endpoint.url, value: outcome.value.secret },
    })
  }
  if (intent === 'toggle') {
    const enabled = form.get('enabled') === 'true'
    return actionResult(() => webhooks.update(caller, endpointId, { enabled }), {
      success: { title: enabled ? 'Endpoint turned on' : 'Endpoint turned off' },
      error: 'Could not change the endpoint',
      intent,
    })
  }
  if (intent === 'delete') {
    return actionResult(() => webhooks.remove(caller, endpointId), {
      success: { title: 'Endpoint deleted' },
      error: 'Could not delete the endpoint',
      intent,
    })
  }
  if (intent === 'test') {
    return actionResult(() => webhooks.sendTest(caller, endpointId), {
      success: (delivery) => deliveryToast('Test event sent', delivery.attempts[0]),
      error: 'Could not send the test event',
      intent,
    })
  }
  if (intent === 'redeliver') {
    return actionResult(() => webhooks.redeliver(caller, endpointId, id(form, 'deliveryId')), {
      success: (delivery) => deliveryToast('Delivered again', delivery.attempts[0]),
      error: 'Could not redeliver',
      intent,
    })
  }
  return data<WebhookActionResult>(
    { ok: false, error: { title: 'Unknown action', description: 'Reload the page and try again.' } },
    { status: 400 },
  )
}

function deliveryToast(
  title: string,
  attempt: { ok: boolean; statusCode: number | null; responseMs: number; error: string | null } | undefined,
) {
  if (!attempt) return { title }
  return attempt.ok
    ? { title, description: `The receiver answered ${attempt.statusCode} in ${attempt.responseMs} ms.` }
    : { title: `${title}, but it failed`, description: attempt.error ?? 'No answer.' }
}
