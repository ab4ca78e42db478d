import type { WebhookEvent } from './webhooks.ts'

// What each event's message carries in `data`, with made-up values: the sample a connector (Zapier,
// n8n, Make) shows before the workspace has sent any (GET /api/hooks/samples/{event},
// docs/decisions/067). A test compares each with a real message, so they keep the real shape.

const RUN = {
  id: '0b7f4c1e-5d2a-4c8e-9f3b-2a6d8e1c4b70',
  automationId: '5e2d9a7c-3b1f-4e6a-8c0d-7f4b2a9e1c36',
  automationName: 'Export invoices',
  trigger: 'schedule',
  runner: 'cloud',
  actionsPerformed: 12,
  creditsCharged: 1,
  refunded: false,
  createdAt: '2026-01-05T09:00:00.000Z',
  startedAt: '2026-01-05T09:00:02.000Z',
  finishedAt: '2026-01-05T09:00:41.000Z',
  durationMs: 39000,
  url: 'https://aether.example.com/dashboard/runs/0b7f4c1e-5d2a-4c8e-9f3b-2a6d8e1c4b70',
}

const finished = (status: 'succeeded' | 'failed' | 'cancelled', error: string | null) => ({
  run: { ...RUN, status, error },
  extracted: {
    rows: status === 'succeeded' ? 2 : 0,
    data:
      status === 'succeeded'
        ? [
            { invoice: 'INV-1041', total: '$120.00' },
            { invoice: 'INV-1042', total: '$89.50' },
          ]
        : [],
    url: null,
  },
  screenshots: [],
  linksExpireAt: '2026-01-12T09:00:41.000Z',
})

export const WEBHOOK_EXAMPLES: Record<WebhookEvent, Record<string, unknown>> = {
  'run.succeeded': finished('succeeded', null),
  'run.failed': finished('failed', 'Step 3 (click "Download"): no element matched "Download" within 10 seconds.'),
  'run.cancelled': finished('cancelled', 'Cancelled by a member.'),
  'run.waiting': {
    run: { id: RUN.id, automationId: RUN.automationId, automationName: RUN.automationName, url: RUN.url },
    message: 'Please solve the check on the page, then press Continue.',
    since: '2026-01-05T09:00:20.000Z',
    until: '2026-01-05T09:15:20.000Z',
    step: 4,
  },
  'automation.changed': {
    change: 'updated',
    automation: {
      id: RUN.automationId,
      name: RUN.automationName,
      version: 3,
      enabled: true,
      schedule: null,
      steps: 7,
      updatedAt: '2026-01-05T08:55:00.000Z',
      url: 'https://aether.example.com/dashboard/automations/5e2d9a7c-3b1f-4e6a-8c0d-7f4b2a9e1c36',
    },
    changedBy: { id: '8d1e6b3a-2c4f-4a7e-9b5d-1f0c3e8a6d24', email: 'ada@example.com' },
  },
  'credits.low': {
    balance: 8,
    previousBalance: 11,
    threshold: 10,
    reason: 'run',
    url: 'https://aether.example.com/billing',
  },
}
