import { WORKSPACE_COOKIE } from '#common/workspaces.ts'

/**
 * The Set-Cookie value that makes a browser session work in a workspace (docs/decisions/021).
 * It holds only the id: every request checks that the member is still in that workspace.
 */
export function rememberWorkspace(workspaceId: string): string {
  return `${WORKSPACE_COOKIE}=${encodeURIComponent(workspaceId)}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax`
}
