import { Hono } from 'hono'
import { MCP_NEEDS_API_KEY_MESSAGE } from '#common/api-keys.ts'
import { Forbidden } from '#common/errors.ts'
import { authorize, member, type SignedInEnv } from '#server/http/access.ts'
import type { AppEnv } from '#server/http/app-env.ts'
import type { McpGateway } from './mcp-gateway.ts'

/**
 * /api/mcp, the MCP server (docs/decisions/066): JSON-RPC over POST, for API keys with the automations
 * scope only (the role in the key's workspace decides the tools). It is not
 * a REST operation, so the OpenAPI document leaves it out. Stateless: no stream to GET, no
 * session to DELETE (405, as the transport's specification asks).
 */
export function createMcpApi(mcp: McpGateway) {
  return new Hono<AppEnv & SignedInEnv>()
    .post('/', authorize(member('automations', 'viewer')), async (c) => {
      const user = c.get('member')
      const via = user.signedInWith
      if (via.kind !== 'api-key') throw new Forbidden(MCP_NEEDS_API_KEY_MESSAGE)
      const answer = await mcp.answer(c.req.raw, user, via.keyId)
      // Through the context, so that what the middleware set (the rate limit's headers) is kept.
      return c.newResponse(answer.body, { status: answer.status as 200, headers: answer.headers })
    })
    .on(['GET', 'DELETE'], '/', (c) =>
      c.json({ message: 'The MCP server answers POST requests only.', code: 'METHOD_NOT_ALLOWED' }, 405, { Allow: 'POST' }),
    )
}
