import { connectionItem } from '../storage/stored-items.ts'
import { AutomationList } from './automation-list.tsx'
import { ConnectionSection } from './connection-section.tsx'
import { RecorderSection } from './recorder-section.tsx'
import { SettingsSection } from './settings-section.tsx'
import { useStoredItem } from './use-stored-item.ts'

/** The extension's side panel: the connection, the recorder, the workspace's automations, settings. */
export function SidePanel() {
  const connection = useStoredItem(connectionItem)
  return (
    <main>
      <h1>Aether</h1>
      <ConnectionSection />
      <RecorderSection />
      {connection && <AutomationList connection={connection} />}
      <SettingsSection />
    </main>
  )
}
