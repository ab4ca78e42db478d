import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AutomationStep } from '#common/automation-steps.ts'
import { auditLog, automations, workspaceMembers, workspaces } from '#server/db/schema/index.ts'
import { listenOnLoopback } from '#server/testing/app-listener.ts'
import { personalCaller } from '#server/testing/callers.ts'
import { startTestSite } from '#server/testing/cloud-run-site.ts'
import { createTestApp, type TestApp } from '#server/testing/create-test-app.ts'
import { startCloudWorker } from '#server/testing/run-to-end.ts'

// The MCP server driven by the MCP SDK's own client over HTTP (a real listener in front of the
// app): the tools each key gets, each tool through the services, refusals by scope, role and
// workspace, the rate limit, and the activity entries (docs/decisions/066).

type Account = Awaited<ReturnType<TestApp['signUp']>>
/** What the tools answer, as far as these tests read it. */
interface ToolAnswer {
  id?: string
  steps?: { outcome: string }[]
  stepsInWords?: string[]
  automations?: { id: string }[]
  templates?: { slug: string }[]
  [field: string]: unknown
}

let t: TestApp
let listener: Awaited<ReturnType<typeof listenOnLoopback>> | undefined
let base: string
let site: Awaited<ReturnType<typeof startTestSite>>
let member: Account
let memberKey: string
let automationId: string

const FORM: AutomationStep[] = [
  { type: 'navigate', url: 'SITE/form' },
  { type: 'type', target: [{ by: 'css', selector: '#name' }], text: '{{input.name}}' },
  { type: 'click', target: [{ by: 'css', selector: '#submit' }] },
  { type: 'wait', target: [{ by: 'css', selector: '#result' }] },
  { type: 'extract', target: [{ by: 'css', selector: '#result' }], field: 'result' },
]

async function newKey(account: Account, scopes?: string[]): Promise<string> {
  const response = await t.request('/api/keys', {
    token: account.token,
    body: { name: `MCP ${Math.random()}`, ...(scopes ? { scopes } : {}) },
  })
  expect(response.status, await response.clone().text()).toBe(201)
  return ((await response.json()) as { data: { key: string } }).data.key
}

/** An MCP client connected to /api/mcp with this bearer token. */
async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'aether-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  })
  await client.connect(transport)
  return client
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
  return { result, text, data: result.structuredContent as ToolAnswer | undefined }
}

beforeAll(async () => {
  t = await createTestApp({ privateTargets: 'loopback' })
  listener = await listenOnLoopback(t.app.fetch)
  base = listener.url
  site = await startTestSite()
  member = await t.signUp({ email: 'assistant-user@example.com' })
  await t.db.update(workspaces).set({ planSlug: 'pro', credits: 100 }).where(eq(workspaces.id, member.id))
  const steps = FORM.map((step) => (step.type === 'navigate' ? { ...step, url: step.url.replace('SITE', site.url) } : step))
  const automation = await t.services.automations.create(personalCaller(member), {
    name: 'Sign up a name',
    description: 'Fills in the form',
    steps,
    schedule: null,
    enabled: true,
  })
  automationId = automation.id
  memberKey = await newKey(member)
})
afterAll(async () => {
  await listener?.close()
  await site?.close()
  await t?.close()
})

describe('the MCP server', () => {
  it("lists a member key's tools, and its automations with their inputs and steps in words", async () => {
    const client = await connect(memberKey)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'get_run',
      'list_automations',
      'list_templates',
      'plan_automation',
      'run_automation',
    ])
    expect(tools.find((tool) => tool.name === 'run_automation')?.inputSchema.required).toEqual(['automation_id'])

    const { data } = await call(client, 'list_automations')
    expect(data).toMatchObject({ total: 1, page: 1 })
    expect(data?.automations).toEqual([
      expect.objectContaining({
        id: automationId,
        name: 'Sign up a name',
        inputs: ['name'],
        steps: expect.arrayContaining([expect.any(String)]),
      }),
    ])
    await client.close()
  })

  it('runs an automation with its inputs, waits for the end, and hands back the extracted data; get_run reads it again', async () => {
    const worker = startCloudWorker(t)
    try {
      const client = await connect(memberKey)
      const { data, result } = await call(client, 'run_automation', {
        automation_id: automationId,
        inputs: { name: 'Ada' },
        wait_seconds: 60,
      })
      expect(result.isError).toBeFalsy()
      expect(data).toMatchObject({ status: 'succeeded', inputs: { name: 'Ada' }, extracted: [{ result: 'Thanks, Ada (free)' }] })
      expect(data?.steps).toHaveLength(5)
      expect(data?.steps?.every((step) => step.outcome === 'done')).toBe(true)

      const again = await call(client, 'get_run', { run_id: data?.id })
      expect(again.data).toMatchObject({ id: data?.id, status: 'succeeded', extracted: [{ result: 'Thanks, Ada (free)' }] })
      // The run was started through the API, by the key's member, and is in the workspace's activity.
      const [started] = await t.db
        .select({ summary: auditLog.summary })
        .from(auditLog)
        .where(and(eq(auditLog.workspaceId, member.id), eq(auditLog.action, 'run.start')))
      expect(started).toBeDefined()
      await client.close()
    } finally {
      await worker.stop(1_000)
    }
  })

  it('answers at once with wait_seconds 0, saying the run is still going', async () => {
    const client = await connect(memberKey)
    const { data } = await call(client, 'run_automation', { automation_id: automationId, inputs: { name: 'Grace' }, wait_seconds: 0 })
    expect(data).toMatchObject({ status: 'queued', note: expect.stringContaining(`call get_run with run_id ${data?.id}`) })
    await client.close()
  })

  it('refuses in our words: a missing input, a wait over the bound, an unknown automation, another workspace’s run', async () => {
    const client = await connect(memberKey)
    const missing = await call(client, 'run_automation', { automation_id: automationId, wait_seconds: 0 })
    expect(missing.result.isError).toBe(true)
    expect(missing.text).toMatch(/name/)

    const tooLong = await call(client, 'run_automation', { automation_id: automationId, inputs: { name: 'A' }, wait_seconds: 121 })
    expect(tooLong.result.isError).toBe(true)
    expect(tooLong.text).toMatch(/wait_seconds/)

    const unknown = await call(client, 'get_run', { run_id: crypto.randomUUID() })
    expect(unknown).toMatchObject({ result: { isError: true }, text: 'Run not found (NOT_FOUND)' })

    const other = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'pro', credits: 100 }).where(eq(workspaces.id, other.id))
    const theirs = await t.services.automations.create(personalCaller(other), {
      name: 'Theirs',
      description: '',
      steps: [{ type: 'navigate', url: `${site.url}/form` }],
      schedule: null,
      enabled: true,
    })
    const theirRun = await t.services.runs.start(theirs.id, personalCaller(other), { runner: 'cloud', trigger: 'manual' })
    expect((await call(client, 'get_run', { run_id: theirRun.id })).text).toBe('Run not found (NOT_FOUND)')
    expect((await call(client, 'run_automation', { automation_id: theirs.id, wait_seconds: 0 })).result.isError).toBe(true)
    expect((await call(client, 'list_automations')).data?.automations?.map((automation) => automation.id)).toEqual([automationId])
    await client.close()
  })

  it('reads an automation’s steps and a run’s extracted data as resources; a foreign or malformed id is not found', async () => {
    const client = await connect(memberKey)
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri)).toEqual([`aether://automations/${automationId}/steps`])
    const steps = await client.readResource({ uri: `aether://automations/${automationId}/steps` })
    expect(steps.contents[0]).toMatchObject({ mimeType: 'text/plain', text: expect.stringMatching(/^Sign up a name\n\n1\. /) })
    await expect(client.readResource({ uri: `aether://runs/${crypto.randomUUID()}/extracted` })).rejects.toThrow(/not found/i)
    await expect(client.readResource({ uri: 'aether://runs/not-an-id/extracted' })).rejects.toThrow(/not found/i)
    await client.close()
  })

  it('drafts an automation from a sentence and saves nothing', async () => {
    const client = await connect(memberKey)
    const before = await t.db.select({ id: automations.id }).from(automations).where(eq(automations.workspaceId, member.id))
    const { data, result } = await call(client, 'plan_automation', {
      description: `Type Ada into Name and click Send`,
      start_url: `${site.url}/form`,
    })
    expect(result.isError, JSON.stringify(result)).toBeFalsy()
    expect(data).toMatchObject({ saved: false, planner: 'offline' })
    expect(data?.steps?.length).toBeGreaterThan(0)
    expect(data?.stepsInWords).toHaveLength(data?.steps?.length ?? -1)
    expect(await t.db.select({ id: automations.id }).from(automations).where(eq(automations.workspaceId, member.id))).toEqual(before)
    await client.close()
  })

  it('lists the published templates', async () => {
    const client = await connect(memberKey)
    const published = await t.services.templates.listPublished()
    const { data } = await call(client, 'list_templates')
    expect(data?.templates?.map((template) => template.slug)).toEqual(published.map((template) => template.slug))
    await client.close()
  })

  it('gives a viewer’s key the reading tools only, and refuses a key without the automations scope', async () => {
    const owner = await t.signUp()
    const colleague = await t.signUp()
    await t.db.update(workspaces).set({ planSlug: 'business' }).where(eq(workspaces.id, owner.id))
    const team = await t.services.workspaces.createTeam({ id: owner.id, email: owner.email }, 'Readers')
    await t.db.insert(workspaceMembers).values({ workspaceId: team.id, userId: colleague.id, role: 'member' })
    const teamKey = await t.request('/api/keys', {
      token: colleague.token,
      body: { name: 'Team key' },
      headers: { 'x-workspace-id': team.id },
    })
    expect(teamKey.status, await teamKey.clone().text()).toBe(201)
    const key = ((await teamKey.json()) as { data: { key: string } }).data.key
    await t.db
      .update(workspaceMembers)
      .set({ role: 'viewer' })
      .where(and(eq(workspaceMembers.workspaceId, team.id), eq(workspaceMembers.userId, colleague.id)))
    const viewer = await connect(key)
    expect((await viewer.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['get_run', 'list_automations', 'list_templates'])
    await expect(viewer.callTool({ name: 'run_automation', arguments: { automation_id: automationId } })).resolves.toMatchObject({
      isError: true,
    })
    await viewer.close()

    const admin = await t.signUp({ role: 'admin' })
    await expect(connect(await newKey(admin, ['admin:read']))).rejects.toThrow(/This API key does not have the automations scope\./)
  })

  it('takes an API key only: 401 without one, 403 for a session; GET is 405', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    expect((await fetch(`${base}/api/mcp`, { method: 'POST', headers, body })).status).toBe(401)
    const session = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${member.token}` },
      body,
    })
    expect(session.status).toBe(403)
    expect(await session.json()).toMatchObject({ message: 'The MCP server takes an API key: create one under Settings, API Keys.' })
    const get = await fetch(`${base}/api/mcp`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${memberKey}` } })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
  })

  it("writes every tool call in the workspace's activity, refusals with their reason", async () => {
    const entries = await t.db
      .select({ summary: auditLog.summary, after: auditLog.after, actor: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, member.id), eq(auditLog.action, 'mcp.tool_call')))
    expect(entries.length).toBeGreaterThanOrEqual(8)
    expect(entries).toContainEqual({
      summary: 'Called run_automation through the MCP server with an API key',
      after: { tool: 'run_automation', outcome: 'done' },
      actor: member.email,
    })
    expect(entries).toContainEqual({
      summary: 'Called get_run through the MCP server with an API key: Run not found',
      after: { tool: 'get_run', outcome: 'refused', code: 'NOT_FOUND' },
      actor: member.email,
    })
  })

  it('counts each tool call against the API rate limit, beside its request', async () => {
    const limited = await t.signUp()
    const key = await newKey(limited)
    const toolCall = () =>
      fetch(`${base}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_templates', arguments: {} } }),
      })
    const remaining = (response: Response) => Number(response.headers.get('ratelimit-remaining'))
    const first = await toolCall()
    const second = await toolCall()
    // Between the two requests' counts: the second request, and the first request's tool call.
    expect(remaining(first) - remaining(second)).toBe(2)

    const settings = await t.services.settings.get()
    // The next request is still within the limit; its tool call is not, and is refused in the limit's words.
    await t.services.settings.update({ ...settings, apiRateLimit: settings.apiRateLimit - remaining(second) + 2 })
    try {
      const refused = await toolCall()
      expect(refused.status).toBe(200)
      const answer = (await refused.json()) as { result: CallToolResult }
      expect(answer.result.isError).toBe(true)
      expect(answer.result.content).toEqual([
        {
          type: 'text',
          text: expect.stringMatching(/^Too many requests: the limit is \d+ per minute\. Please retry in \d+ seconds\. \(RATE_LIMITED\)$/),
        },
      ])
      expect((await toolCall()).status).toBe(429)
    } finally {
      await t.services.settings.update(settings)
    }
  })
})
