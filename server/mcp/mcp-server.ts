import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { AppError, NotFound } from '#common/errors.ts'
import { stepInWords } from '#common/step-words.ts'
import { z } from '#common/zod.ts'
import { member, refusal } from '#server/http/access.ts'
import { apiCallerKey, countApiCall } from '#server/http/api-rate-limit.ts'
import type { McpContext } from './mcp-context.ts'
import { MCP_TOOLS, type McpTool } from './mcp-tools.ts'

// The MCP server (docs/decisions/066): built for each request of an API key's member, with the
// tools the key's scopes and the member's role allow, over the stateless Streamable HTTP transport
// answering in JSON. This module holds the SDK, and is loaded on the first MCP request.

/** JSON-RPC's "resource not found" (the MCP specification's own code). */
const RESOURCE_NOT_FOUND = -32002

const INSTRUCTIONS =
  'Aether runs browser automations in the cloud. list_automations shows what this workspace has and the inputs each takes; ' +
  'run_automation starts one and waits for its result (runs cost credits: run one only when the person asked for it); ' +
  'get_run reads a run; plan_automation drafts steps from a sentence without saving them; list_templates shows ready-made ones.'

/** Answers one MCP request of the context's member. */
export async function answerMcpRequest(request: Request, context: McpContext): Promise<Response> {
  const server = mcpServerFor(context)
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request)
  } finally {
    await server.close()
  }
}

function mcpServerFor(context: McpContext): McpServer {
  const server = new McpServer({ name: 'aether', version: '1.0.0' }, { instructions: INSTRUCTIONS })
  for (const tool of MCP_TOOLS) {
    if (!allowed(context, tool)) continue
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations },
      (args: unknown) => called(context, tool, args),
    )
  }
  if (refusal(context.user, member('automations', 'viewer')) === null) registerResources(server, context)
  return server
}

const allowed = (context: McpContext, tool: McpTool): boolean =>
  refusal(context.user, { who: tool.needs.admin ? 'admin' : 'member', apiKey: tool.needs.scope, workspaceRole: tool.needs.role }) === null

/**
 * One tool call: counted against the member's API rate limit, carried out through the services,
 * written in the workspace's activity and the log. Our refusals come back as the tool's error,
 * in our words, for the assistant to read.
 */
async function called(context: McpContext, tool: McpTool, args: unknown): Promise<CallToolResult> {
  const started = Date.now()
  let outcome: CallOutcome = 'failed'
  try {
    await countCall(context)
    const value = (await tool.call(args as never, context)) as Record<string, unknown>
    outcome = 'done'
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value }
  } catch (error) {
    if (error instanceof AppError) outcome = error
    else context.logger.error({ err: error, tool: tool.name }, 'mcp: a tool failed')
    const message = error instanceof AppError ? error.message : 'Something went wrong on our side. Please try again later.'
    const code = error instanceof AppError ? error.code : 'INTERNAL_ERROR'
    return { isError: true, content: [{ type: 'text', text: `${message} (${code})` }] }
  } finally {
    await recordCall(context, tool, outcome, Date.now() - started)
  }
}

/** How a tool call ended: carried out, refused by one of our rules (the refusal), or failed on our side. */
type CallOutcome = 'done' | 'failed' | AppError

async function countCall(context: McpContext): Promise<void> {
  const { rateLimits, settings } = context.services
  const counted = await countApiCall(rateLimits, settings, apiCallerKey(context.user.id))
  if (counted.refusal) throw counted.refusal
}

async function recordCall(context: McpContext, tool: McpTool, outcome: CallOutcome, ms: number): Promise<void> {
  const refused = outcome instanceof AppError ? outcome : null
  const kind = refused ? 'refused' : (outcome as 'done' | 'failed')
  context.logger.info(
    { tool: tool.name, keyId: context.keyId, workspaceId: context.caller.workspace.id, outcome: kind, reason: refused?.message, ms },
    'mcp tool call',
  )
  const why = refused ? `: ${refused.message}` : kind === 'failed' ? ': it failed on our side' : ''
  await context.services.audit
    .record(context.db, context.user, {
      workspaceId: context.caller.workspace.id,
      action: 'mcp.tool_call',
      targetType: 'api_key',
      targetId: context.keyId,
      summary: `Called ${tool.name} through the MCP server with an API key${why}`,
      after: { tool: tool.name, outcome: kind, ...(refused ? { code: refused.code } : {}) },
    })
    .catch((error: unknown) => context.logger.warn({ err: error, tool: tool.name }, 'mcp: the activity entry was not written'))
}

/** An automation's steps in words, and a run's extracted data, as resources an assistant can attach. */
function registerResources(server: McpServer, context: McpContext): void {
  const { services, caller } = context
  server.registerResource(
    'automation-steps',
    new ResourceTemplate('aether://automations/{id}/steps', {
      list: async () => {
        const newest = await services.automations.list(caller.workspace.id, { page: 1, limit: 100 })
        return {
          resources: newest.items.map((automation) => ({
            uri: `aether://automations/${automation.id}/steps`,
            name: `${automation.name}: steps`,
            mimeType: 'text/plain',
          })),
        }
      },
    }),
    { title: "An automation's steps in words", mimeType: 'text/plain' },
    (uri, { id }) =>
      read(context, id, async (automationId) => {
        const automation = await services.automations.get(automationId, caller)
        const lines = automation.steps.map((step, index) => `${index + 1}. ${stepInWords(step)}`)
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: [automation.name, '', ...lines].join('\n') }] }
      }),
  )
  server.registerResource(
    'run-extracted-data',
    new ResourceTemplate('aether://runs/{id}/extracted', { list: undefined }),
    { title: 'The data a run extracted (JSON rows)', mimeType: 'application/json' },
    (uri, { id }) =>
      read(context, id, async (runId) => {
        const run = await services.runs.get(runId, caller)
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(run.extracted, null, 2) }] }
      }),
  )
}

/** A resource read: counted like a call; an unknown, foreign or malformed id is "resource not found", other refusals invalid params. */
async function read<T>(context: McpContext, id: string | string[] | undefined, work: (id: string) => Promise<T>): Promise<T> {
  await countCall(context).catch((error: unknown) => {
    throw error instanceof AppError ? new McpError(ErrorCode.InvalidRequest, error.message) : error
  })
  if (typeof id !== 'string' || !z.uuid().safeParse(id).success) throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found')
  try {
    return await work(id)
  } catch (error) {
    if (error instanceof NotFound) throw new McpError(RESOURCE_NOT_FOUND, error.message)
    if (error instanceof AppError) throw new McpError(ErrorCode.InvalidParams, error.message)
    throw error
  }
}
