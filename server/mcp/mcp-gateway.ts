import { callerOf } from '#common/auth.ts'
import type { SessionUser } from '#server/features/auth/session.service.ts'
import type { McpDeps } from './mcp-context.ts'
import type * as McpServerModule from './mcp-server.ts'

/**
 * The MCP server's front (docs/decisions/066). The SDK is loaded with the first request, not at
 * start-up: most processes never answer one.
 */
export function createMcpGateway(deps: McpDeps) {
  let server: Promise<typeof McpServerModule> | null = null
  return {
    /** Answers one MCP request (stateless Streamable HTTP) of an API key's member, in the key's workspace. */
    async answer(request: Request, user: SessionUser, keyId: string): Promise<Response> {
      const { answerMcpRequest } = await (server ??= import('./mcp-server.ts'))
      return answerMcpRequest(request, { ...deps, user, caller: callerOf(user), keyId, signal: request.signal })
    },
  }
}

export type McpGateway = ReturnType<typeof createMcpGateway>
