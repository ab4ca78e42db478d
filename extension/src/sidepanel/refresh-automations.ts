import { listAutomations } from '../aether-api/automations-api.ts'
import { automationListItem, type Connection } from '../storage/stored-items.ts'

/** Lists the workspace's automations again and keeps the list (shown at once the next time the panel opens). */
export async function refreshAutomations(connection: Connection): Promise<void> {
  const items = await listAutomations(connection)
  await automationListItem.setValue({
    serverUrl: connection.serverUrl,
    workspaceId: connection.workspace.id,
    fetchedAt: new Date().toISOString(),
    items,
  })
}
