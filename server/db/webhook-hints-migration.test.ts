import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { webhookUrlHint } from '#common/webhooks.ts'
import { migratedUntil } from '#server/testing/migrated-until.ts'

// Migration 0020 rewrites the activity entries of webhook endpoints written before issue 27 (item 6):
// they named the whole URL, token and all, where viewers and any API key read it. Each now names it
// as the service does from now on (webhookUrlHint), and nothing else in the feed changes.
let database: Awaited<ReturnType<typeof migratedUntil>>
beforeEach(async () => {
  database = await migratedUntil('0020_webhook_url_hints')
})
afterEach(async () => {
  await database.close()
})

const URLS = [
  'https://hooks.example.com/services/T0KEN/abc?token=xyz123456',
  'https://Hooks.Example.COM:443/short',
  'http://example.org:8080/',
  'http://example.org:80/a/b/c/d/e/f/g/h/i',
  'https://example.com',
  'https://example.com?token=abcdefghijklmnop',
  'https://[2001:db8::1]:8443/x/secret-token-1234',
  'https://example.com/a#fragment-secret-value',
  'https://example.com/a: url',
]

/** What the service wrote before: the whole URL in each of the four summaries. */
const OLD = (url: string) => [
  ['webhook.create', `Added the webhook endpoint ${url}`, `Added the webhook endpoint ${webhookUrlHint(url)}`],
  [
    'webhook.update',
    `Changed the webhook endpoint ${url}: url, events`,
    `Changed the webhook endpoint ${webhookUrlHint(url)}: url, events`,
  ],
  [
    'webhook.update',
    `Changed the webhook endpoint ${url}: description`,
    `Changed the webhook endpoint ${webhookUrlHint(url)}: description`,
  ],
  ['webhook.delete', `Deleted the webhook endpoint ${url}`, `Deleted the webhook endpoint ${webhookUrlHint(url)}`],
  [
    'webhook.rotate-secret',
    `Rotated the signing secret of the webhook endpoint ${url}`,
    `Rotated the signing secret of the webhook endpoint ${webhookUrlHint(url)}`,
  ],
]

describe('migration 0020 (webhook URL hints in the activity feed)', () => {
  it('names each webhook endpoint of an older entry by its origin and hint, as new entries do', async () => {
    const expected: [string, string][] = []
    for (const url of URLS) {
      for (const [action, summary, after] of OLD(url)) {
        const { rows } = await database.client.query<{ id: string }>(
          `insert into audit_log (actor_email, action, target_type, summary) values ('owner@example.com', $1, 'webhook', $2) returning id`,
          [action, summary],
        )
        expected.push([rows[0]!.id, after!])
      }
    }
    const untouched = [
      ['secret.create', 'secret', 'Added the secret https://example.com/keep-this-path to the vault'],
      ['automation.update', 'automation', 'Changed the automation Added the webhook endpoint https://example.com/not-a-webhook-entry'],
    ]
    for (const [action, target, summary] of untouched) {
      await database.client.query(
        `insert into audit_log (actor_email, action, target_type, summary) values ('a@example.com', $1, $2, $3)`,
        [action, target, summary],
      )
    }

    await database.migrateRest()

    const { rows } = await database.client.query<{ id: string; action: string; summary: string }>(
      'select id, action, summary from audit_log',
    )
    const byId = new Map(rows.map((row) => [row.id, row.summary]))
    for (const [id, after] of expected) expect(byId.get(id)).toBe(after)
    for (const [, , summary] of untouched) expect(rows.map((row) => row.summary)).toContain(summary)
    const webhookText = rows
      .filter((row) => row.action.startsWith('webhook.'))
      .map((row) => row.summary)
      .join('\n')
    for (const secret of ['T0KEN', 'xyz123', 'token=', 'secret-token', 'fragment-secret', '/short', '/a/b/c']) {
      expect(webhookText, secret).not.toContain(secret)
    }
  })
})
