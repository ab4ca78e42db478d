import { TokenRefusedError } from '../aether-api/api-client.ts'
import { connectionItem, disconnectedItem } from '../storage/stored-items.ts'

export const DISCONNECTED_MESSAGE = 'This browser was disconnected'

/**
 * What to tell the member about a failed call. A refused credential means the device was revoked
 * on the website: it is forgotten here too, and the panel asks to connect again.
 */
export async function messageForError(error: unknown): Promise<string> {
  if (error instanceof TokenRefusedError) {
    await connectionItem.setValue(null)
    await disconnectedItem.setValue(true)
    return DISCONNECTED_MESSAGE
  }
  return error instanceof Error ? error.message : String(error)
}
