import { eq } from 'drizzle-orm'
import type { AppLoadContext } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loader as activityPage } from '#app/routes/workspace-activity.tsx'
import { workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '#server/testing/create-test-app.ts'

// A webhook URL often carries the receiver's token in its path or query. Only a workspace's owners
// and admins may read /webhooks; the activity feed, which viewers and any API key read, names an
// endpoint by its origin and a hint (issue 27, item 6).

type Member = Awaited<ReturnType<TestApp['signUp']>>
type Activity = { action: string; summary: string }

const TOKEN_PATH = '/hooks/T0KEN-in-the-path-9f8e7d'
const QUERY = '?token=query-secret-5a4b3c'
// A public address as a literal: saving checks it with the target guard, and nothing is sent.
const URL_WITH_TOKEN = `https://93.184.215.14${TOKEN_PATH}${QUERY}`
const CHANGED_URL = 'https://93.184.215.14/other/path-secret-777?sig=another-secret-888'
const LEAKS = ['T0KEN', 'in-the-path', 'query-secret', '/hooks/', '?token', 'path-secret', 'another-secret', '?sig']

let t: TestApp
let owner: Member
let colleague: Member
let viewer: Member
let teamId: string

const inTeam = (member: Member, init: Parameters<TestApp['request']>[1] = {}) => ({
  ...init,
  token: init.token ?? member.token,
  headers: { ...init.headers, 'x-workspace-id': teamId },
})

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return (JSON.parse(text) as { data: T }).data
}

function expectNoUrlSecret(text: string) {
  for (const leak of LEAKS) expect(text, leak).not.toContain(leak)
}

beforeAll(async () => {
  t = await createTestApp()
  owner = await t.signUp({ email: 'owner@example.com' })
  colleague = await t.signUp({ email: 'colleague@example.com' })
  viewer = await t.signUp({ email: 'viewer@example.com' })
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
  teamId = (await json<{ id: string }>(await t.request('/api/workspaces', { token: owner.token, body: { name: 'Hooks team' } }), 201)).id
  await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, teamId))
  await t.db.insert(workspaceMembers).values([
    { workspaceId: teamId, userId: colleague.id, role: 'member' },
    { workspaceId: teamId, userId: viewer.id, role: 'viewer' },
  ])
})
afterAll(async () => {
  await t.close()
})

describe('webhook URLs in the activity feed', () => {
  it('name the origin and a hint, never the path or query, for viewers and API keys; /webhooks still shows the whole URL', async () => {
    const created = await t.services.outgoingWebhooks.create(
      { id: owner.id, email: owner.email, emailVerified: true, role: 'user', workspace: { id: teamId, role: 'owner' } },
      { url: URL_WITH_TOKEN, description: '', events: ['run.succeeded'], enabled: true },
    )
    const caller = {
      id: owner.id,
      email: owner.email,
      emailVerified: true,
      role: 'user' as const,
      workspace: { id: teamId, role: 'owner' as const },
    }
    await t.services.outgoingWebhooks.update(caller, created.endpoint.id, { url: CHANGED_URL })
    await t.services.outgoingWebhooks.rotateSecret(caller, created.endpoint.id)
    await t.services.outgoingWebhooks.remove(caller, created.endpoint.id)
    const again = await t.services.outgoingWebhooks.create(caller, {
      url: URL_WITH_TOKEN,
      description: '',
      events: ['run.failed'],
      enabled: true,
    })

    // A viewer, with a session.
    const seenByViewer = await json<Activity[]>(await t.request('/api/workspaces/current/activity', inTeam(viewer)), 200)
    const webhookEntries = seenByViewer.filter((entry) => entry.action.startsWith('webhook.'))
    expect(webhookEntries.map((entry) => entry.summary)).toEqual([
      'Added the webhook endpoint https://93.184.215.14/…4b3c',
      'Deleted the webhook endpoint https://93.184.215.14/…-888',
      'Rotated the signing secret of the webhook endpoint https://93.184.215.14/…-888',
      'Changed the webhook endpoint https://93.184.215.14/…-888: url',
      'Added the webhook endpoint https://93.184.215.14/…4b3c',
    ])
    expectNoUrlSecret(JSON.stringify(seenByViewer))
    expect((await t.request('/api/webhooks', inTeam(viewer))).status).toBe(403)

    // A member's API key (any key reads the feed; no key of a member reaches /webhooks).
    const key = await json<{ key: string }>(await t.request('/api/keys', inTeam(colleague, { body: { name: 'Reader' } })), 201)
    const seenByKey = await t.request('/api/workspaces/current/activity', { token: key.key })
    expectNoUrlSecret(await json<Activity[]>(seenByKey, 200).then(JSON.stringify))
    expect((await t.request('/api/webhooks', { token: key.key })).status).toBe(403)

    // The Activity page, as the viewer opens it.
    const session = (await t.services.sessions.resolve({ kind: 'bearer', token: viewer.token })).user
    const context = {
      services: t.services,
      user: session && { ...session, workspace: await t.services.workspaces.access(viewer.id, teamId) },
      credential: null,
      cspNonce: 'nonce',
      clientIp: t.freshIp(),
      publicUrl: TEST_PUBLIC_URL,
      reportError: (error: unknown) => {
        throw error
      },
    } as AppLoadContext
    const page = await activityPage({
      request: new Request(`${TEST_PUBLIC_URL}/workspace/activity`),
      params: {},
      context,
    } as Parameters<typeof activityPage>[0])
    expect(page.entries.some((entry) => entry.summary.startsWith('Added the webhook endpoint https://93.184.215.14/…'))).toBe(true)
    expectNoUrlSecret(JSON.stringify(page))

    // Where it belongs: the owner's /webhooks shows the whole URL.
    const listed = await json<{ id: string; url: string }[]>(await t.request('/api/webhooks', inTeam(owner)), 200)
    expect(listed).toEqual([expect.objectContaining({ id: again.endpoint.id, url: URL_WITH_TOKEN })])
  })
})
